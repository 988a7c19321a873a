import Foundation

/// The one JSON writer: JSON text for plain values, with object keys sorted so the output is
/// deterministic. Used for action results, parameter defaults and the profiler's report.
///
/// Writes `String`, integers, finite `Double`, `Bool`, nil or `()`, arrays and string-keyed
/// dictionaries of those (optionals looked through), values that stand for JSON
/// (``PlainJSONConvertible``) and `Encodable` values.
///
/// ```swift
/// JSONWriter.json(["title": "Hi", "tags": ["a"]])  // {"tags":["a"],"title":"Hi"}
/// JSONWriter.quote("say \"hi\"")                   // "say \"hi\""
/// ```
package enum JSONWriter {
  /// The deepest nesting of arrays and dictionaries written; deeper values are refused rather
  /// than exhausting the stack (an action result nested 50,000 deep would crash the host).
  package static let maximumDepth = 512

  /// What ``write(_:)`` made of a value.
  package enum Written {
    case json(String)
    /// Not JSON-representable.
    case notJSON
    /// Nested deeper than ``maximumDepth``.
    case tooDeep
  }

  /// JSON text, or nil when the value is not JSON-representable or nested too deep.
  package static func json(_ value: Any?) -> String? {
    if case .json(let text) = write(value) { return text }
    return nil
  }

  /// JSON text, or why there is none.
  package static func write(_ value: Any?) -> Written {
    var output = ""
    switch write(value, to: &output, depth: 0) {
    case .written: return .json(output)
    case .notJSON: return .notJSON
    case .tooDeep: return .tooDeep
    }
  }

  private enum Outcome {
    case written, notJSON, tooDeep
  }

  /// `text` as a JSON string literal, with quotes and control characters escaped.
  package static func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  private static func write(_ value: Any?, to output: inout String, depth: Int) -> Outcome {
    guard depth <= maximumDepth else { return .tooDeep }
    guard let value = unwrap(value) else {
      output += "null"
      return .written
    }
    switch value {  // the commonest exact types first: each case is a dynamic cast
    case let string as String: output += quote(string)
    case let int as Int: output += String(int)
    case let bool as Bool: output += bool ? "true" : "false"
    case let double as Double:
      guard double.isFinite else { return .notJSON }
      output += String(describing: double)
    case is Void: output += "null"
    case let json as any PlainJSONConvertible:
      return write(json.plainJSON, to: &output, depth: depth)
    case let integer as any BinaryInteger: output += String(describing: integer)
    // The `Sendable` forms first: they are what the runtime passes, and they match without
    // the copy a cast to `[Any]` or `[String: Any]` makes of every element.
    case let array as [any Sendable]: return write(array: array, to: &output, depth: depth)
    case let array as [Any]: return write(array: array, to: &output, depth: depth)
    case let object as [String: any Sendable]:
      return write(object: object, to: &output, depth: depth)
    case let object as [String: Any]: return write(object: object, to: &output, depth: depth)
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

  private static func write<Element>(array: [Element], to output: inout String, depth: Int)
    -> Outcome
  {
    output += "["
    for (index, element) in array.enumerated() {
      if index > 0 { output += "," }
      let outcome = write(element, to: &output, depth: depth + 1)
      guard outcome == .written else { return outcome }
    }
    output += "]"
    return .written
  }

  private static func write<Value>(object: [String: Value], to output: inout String, depth: Int)
    -> Outcome
  {
    output += "{"
    for (index, key) in object.keys.sorted().enumerated() {
      if index > 0 { output += "," }
      output += quote(key) + ":"
      let outcome = write(object[key], to: &output, depth: depth + 1)
      guard outcome == .written else { return outcome }
    }
    output += "}"
    return .written
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
}

/// A value that stands for plain JSON values (the manifest layer's `JSONValue`): the writer
/// writes ``plainJSON`` in its place.
package protocol PlainJSONConvertible {
  /// The value as `String`, `Int`, `Double`, `Bool`, nil, or arrays and string-keyed
  /// dictionaries of values (which may themselves be convertible).
  var plainJSON: Any? { get }
}

/// Lets ``JSONWriter`` see through an `Optional` stored in an `Any`.
private protocol OptionalProtocol {
  var wrapped: Any? { get }
}

extension Optional: OptionalProtocol {
  fileprivate var wrapped: Any? { self.map { $0 as Any } }
}
