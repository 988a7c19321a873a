import ApiaryManifest
import ApiarySupport

/// What crosses the wire: JSON values. Parameters, results and event payloads are written with
/// the runtime's ``JSONWriter`` (strings, integers, finite doubles, booleans, nil, arrays and
/// string-keyed dictionaries of them, ``JSONValue`` and `Encodable` values) and arrive as plain
/// values (`String`, `Int`, `Double`, `Bool`, nil, `[Any?]`-shaped arrays and `[String: …]`
/// dictionaries). Anything else is refused with ``NotRepresentable``, naming where it is.
///
/// ```swift
/// let text = try WireValue.encode(["title": "Hi"], what: "parameters of notes.create")
/// ```
package enum WireValue {
  /// `value` as JSON text; `depth` is how deep in the message it will be nested (see
  /// ``JSONWriter/write(_:depth:)``). `what` is made only when the value cannot cross.
  package static func encode(
    _ value: Any?, what: @autoclosure () -> String, depth: Int = 0
  ) throws(NotRepresentable) -> String {
    switch JSONWriter.write(value, depth: depth) {
    case .json(let text): return text
    case .notJSON:
      throw NotRepresentable(what: what(), path: firstUnrepresentable(value, path: "") ?? "")
    case .tooDeep:
      throw NotRepresentable(
        what: what(), path: "", reason: "nested deeper than \(JSONWriter.maximumDepth) levels")
    }
  }

  /// A key path to the first value the writer refuses, with its type: `.note (Note)`.
  private static func firstUnrepresentable(_ value: Any?, path: String) -> String? {
    switch value {
    case let object as [String: Any]:
      for key in object.keys.sorted() {
        if let found = firstUnrepresentable(object[key] ?? nil, path: path + "." + key) {
          return found
        }
      }
      return nil
    case let array as [Any]:
      for (index, element) in array.enumerated() {
        if let found = firstUnrepresentable(element, path: path + "[\(index)]") { return found }
      }
      return nil
    default:
      if case .notJSON = JSONWriter.write(value) {
        return "\(path.isEmpty ? "" : path + " ")(\(value.map { "\(type(of: $0))" } ?? "nil"))"
      }
      return nil
    }
  }
}

/// A value that cannot cross the process boundary: what it belonged to and where in it.
///
/// ```text
/// parameters of notes.create cannot cross the process boundary: .when (Date); only JSON
/// values cross (strings, integers, finite doubles, booleans, null, arrays, string-keyed
/// objects, Encodable values)
/// ```
public struct NotRepresentable: Error, Sendable, Hashable, CustomStringConvertible {
  public let what: String
  public let path: String
  public let reason: String

  package init(what: String, path: String, reason: String? = nil) {
    self.what = what
    self.path = path
    self.reason =
      reason
      ?? "only JSON values cross (strings, integers, finite doubles, booleans, null, arrays, "
      + "string-keyed objects, Encodable values)"
  }

  public var description: String {
    "\(what) cannot cross the process boundary\(path.isEmpty ? "" : ": \(path)"); \(reason)"
  }
}
