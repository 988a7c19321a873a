import ApiarySupport
import Foundation

/// Reads XML (or binary) property lists into the same tree the JSON parser builds, so one
/// decoder serves both. Property lists carry no positions, so problems name key paths only.
enum PropertyListReader {
  /// Whether `bytes` look like a property list rather than JSON.
  static func looksLikePropertyList(_ bytes: UnsafeRawBufferPointer) -> Bool {
    if bytes.starts(with: "bplist".utf8) { return true }
    let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    return first == UInt8(ascii: "<")
  }

  static func parse(_ data: Data, file: String) -> (
    root: ManifestNode?, problems: [ManifestProblem]
  ) {
    let location = SourceLocation(file: file)
    if xmlDepth(data) > JSONParser.maximumDepth {
      return (
        nil,
        [
          ManifestProblem(
            .syntax, at: location,
            "arrays and dictionaries nested deeper than \(JSONParser.maximumDepth) levels")
        ]
      )
    }
    let value: Any
    do {
      value = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    } catch {
      let detail = (error as NSError).userInfo["NSDebugDescription"] as? String
      return (
        nil,
        [
          ManifestProblem(
            .syntax, at: location,
            "not a valid property list" + (detail.map { ": \($0)" } ?? ""))
        ]
      )
    }
    var problems: [ManifestProblem] = []
    let root = node(value, path: "", file: file, problems: &problems)
    return (root, problems)
  }

  private static func node(
    _ value: Any, path: String, file: String, problems: inout [ManifestProblem]
  ) -> ManifestNode {
    func make(_ value: ManifestNode.Value) -> ManifestNode {
      ManifestNode(value: value, line: 0, column: 0)
    }
    // Foundation gives real `Bool`s for <true/> and <false/>, and NSNumbers (which also cast
    // to Bool) for numbers, so the dynamic type decides.
    if type(of: value) == Bool.self, let flag = value as? Bool { return make(.bool(flag)) }
    switch value {
    case let value as String:
      return make(.string(value))
    case let number as NSNumber:
      let objCType = String(cString: number.objCType)
      if objCType == "d" || objCType == "f" { return make(.double(number.doubleValue)) }
      if objCType == "c" || objCType == "B" { return make(.bool(number.boolValue)) }
      return make(.int(number.intValue))
    case let items as [Any]:
      return make(
        .array(
          items.enumerated().map {
            node($1, path: "\(path)[\($0)]", file: file, problems: &problems)
          }))
    case let members as [String: Any]:
      return make(
        .object(
          members.sorted { $0.key < $1.key }.map { key, value in
            ManifestNode.Member(
              key: key, line: 0, column: 0,
              value: node(
                value, path: path.isEmpty ? key : "\(path).\(key)", file: file,
                problems: &problems))
          }))
    default:
      problems.append(
        ManifestProblem(
          .typeMismatch, at: SourceLocation(file: file, keyPath: path),
          "expected string, number, boolean, array or dictionary, found \(type(of: value))"))
      return make(.null)
    }
  }

  /// The deepest nesting of `<array>` and `<dict>` elements, found without parsing, so hostile
  /// input never reaches the recursive Foundation parser.
  private static func xmlDepth(_ data: Data) -> Int {
    data.withUnsafeBytes { bytes in
      var depth = 0
      var deepest = 0
      var index = 0
      while index < bytes.count {
        if bytes[index] == UInt8(ascii: "<") {
          let rest = UnsafeRawBufferPointer(rebasing: bytes[(index + 1)...])
          if rest.starts(with: "array>".utf8) || rest.starts(with: "dict>".utf8) {
            depth += 1
            deepest = max(deepest, depth)
          } else if rest.starts(with: "/array>".utf8) || rest.starts(with: "/dict>".utf8) {
            depth -= 1
          }
        }
        index += 1
      }
      return deepest
    }
  }
}
