import Foundation

/// Renders an action's result for a terminal: JSON when the value is JSON-representable
/// (`String`, integers, finite `Double`, `Bool`, nil or `()`, arrays and string-keyed
/// dictionaries of those, ``JSONValue``, or `Encodable`), else its description. Object keys are
/// sorted, so the output is deterministic.
///
/// ```swift
/// ResultRenderer.render(["title": "Hi", "tags": ["a"]])  // {"tags":["a"],"title":"Hi"}
/// ResultRenderer.render(NonCodableThing())                // NonCodableThing(...)
/// ```
public enum ResultRenderer {
  /// The deepest nesting of arrays and dictionaries rendered; deeper results are refused with
  /// ``MediatorError/resultTooDeep(limit:)`` instead of exhausting the stack.
  public static let maximumDepth = 512

  /// JSON text when possible, else `String(describing:)`.
  public static func render(_ value: (any Sendable)?) throws(MediatorError) -> String {
    var output = ""
    switch write(value, to: &output, depth: 0) {
    case .written: return output
    case .tooDeep: throw .resultTooDeep(limit: maximumDepth)
    case .notJSON: return value.map { String(describing: $0) } ?? "null"
    }
  }

  /// JSON text, or nil when the value is not JSON-representable or nested too deep.
  public static func json(_ value: (any Sendable)?) -> String? {
    var output = ""
    return write(value, to: &output, depth: 0) == .written ? output : nil
  }

  private enum Outcome {
    case written, notJSON, tooDeep
  }

  private static func write(_ value: Any?, to output: inout String, depth: Int) -> Outcome {
    guard depth <= maximumDepth else { return .tooDeep }
    guard let value = unwrap(value) else {
      output += "null"
      return .written
    }
    switch value {
    case is Void: output += "null"
    case let json as JSONValue: return write(json, to: &output, depth: depth)
    case let string as String: writeString(string, to: &output)
    case let bool as Bool: output += bool ? "true" : "false"
    case let int as Int: output += String(int)
    case let integer as any BinaryInteger: output += String(describing: integer)
    case let double as Double:
      guard double.isFinite else { return .notJSON }
      output += String(describing: double)
    case let array as [Any]:
      output += "["
      for (index, element) in array.enumerated() {
        if index > 0 { output += "," }
        let outcome = write(element, to: &output, depth: depth + 1)
        guard outcome == .written else { return outcome }
      }
      output += "]"
    case let object as [String: Any]:
      output += "{"
      for (index, key) in object.keys.sorted().enumerated() {
        if index > 0 { output += "," }
        writeString(key, to: &output)
        output += ":"
        let outcome = write(object[key], to: &output, depth: depth + 1)
        guard outcome == .written else { return outcome }
      }
      output += "}"
    case let encodable as any Encodable:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      guard let data = try? encoder.encode(encodable),
        let text = String(data: data, encoding: .utf8)
      else { return .notJSON }
      output += text
    default: return .notJSON
    }
    return .written
  }

  private static func write(_ json: JSONValue, to output: inout String, depth: Int) -> Outcome {
    switch json {
    case .array(let values): return write(values.map { $0 as Any }, to: &output, depth: depth)
    case .object(let members):
      return write(members.mapValues { $0 as Any }, to: &output, depth: depth)
    default: return write(json.plainValue, to: &output, depth: depth)
    }
  }

  /// Looks through `Optional`s nested inside `Any` (a bounded number of them).
  private static func unwrap(_ value: Any?) -> Any? {
    var current = value
    for _ in 0...maximumDepth {
      guard let value = current else { return nil }
      guard let optional = value as? any OptionalProtocol else { return value }
      current = optional.wrapped
    }
    return current
  }

  private static func writeString(_ string: String, to output: inout String) {
    output += JSONString.quote(string)
  }

}

/// Lets ``ResultRenderer`` see through an `Optional` stored in an `Any`.
private protocol OptionalProtocol {
  var wrapped: Any? { get }
}

extension Optional: OptionalProtocol {
  fileprivate var wrapped: Any? { self.map { $0 as Any } }
}
