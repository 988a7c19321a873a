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
  /// JSON text when possible, else `String(describing:)`.
  public static func render(_ value: (any Sendable)?) -> String {
    json(value) ?? value.map { String(describing: $0) } ?? "null"
  }

  /// JSON text, or nil when the value is not JSON-representable.
  public static func json(_ value: (any Sendable)?) -> String? {
    var output = ""
    return write(value, to: &output) ? output : nil
  }

  private static func write(_ value: Any?, to output: inout String) -> Bool {
    guard let value = unwrap(value) else {
      output += "null"
      return true
    }
    switch value {
    case is Void: output += "null"
    case let json as JSONValue: return write(json, to: &output)
    case let string as String: writeString(string, to: &output)
    case let bool as Bool: output += bool ? "true" : "false"
    case let int as Int: output += String(int)
    case let integer as any BinaryInteger: output += String(describing: integer)
    case let double as Double:
      guard double.isFinite else { return false }
      output += String(describing: double)
    case let array as [Any]:
      output += "["
      for (index, element) in array.enumerated() {
        if index > 0 { output += "," }
        guard write(element, to: &output) else { return false }
      }
      output += "]"
    case let object as [String: Any]:
      output += "{"
      for (index, key) in object.keys.sorted().enumerated() {
        if index > 0 { output += "," }
        writeString(key, to: &output)
        output += ":"
        guard write(object[key], to: &output) else { return false }
      }
      output += "}"
    case let encodable as any Encodable:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      guard let data = try? encoder.encode(encodable),
        let text = String(data: data, encoding: .utf8)
      else { return false }
      output += text
    default: return false
    }
    return true
  }

  private static func write(_ json: JSONValue, to output: inout String) -> Bool {
    switch json {
    case .array(let values): return write(values.map { $0 as Any }, to: &output)
    case .object(let members): return write(members.mapValues { $0 as Any }, to: &output)
    default: return write(json.plainValue, to: &output)
    }
  }

  /// Looks through `Optional`s nested inside `Any`.
  private static func unwrap(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let optional = value as? any OptionalProtocol { return unwrap(optional.wrapped) }
    return value
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
