#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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

  /// JSON text, or why there is none. A value that will be nested `depth` levels deep in
  /// another has that many levels fewer to spare.
  package static func write(_ value: Any?, depth: Int = 0) -> Written {
    var output: [UInt8] = []
    output.reserveCapacity(64)
    switch write(value, to: &output, depth: depth) {
    case .written: return .json(String(decoding: output, as: UTF8.self))
    case .notJSON: return .notJSON
    case .tooDeep: return .tooDeep
    }
  }

  private enum Outcome {
    case written, notJSON, tooDeep
  }

  /// `text` as a JSON string literal, with quotes and control characters escaped.
  package static func quote(_ text: String) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count + 2)
    quote(text, to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// Appends `text` as a JSON string literal to `output`.
  package static func quote(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output += #"\""#.utf8
      case UInt8(ascii: "\\"): output += #"\\"#.utf8
      case UInt8(ascii: "\n"): output += #"\n"#.utf8
      case UInt8(ascii: "\r"): output += #"\r"#.utf8
      case UInt8(ascii: "\t"): output += #"\t"#.utf8
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        output += #"\u00"#.utf8
        output.append(hex[Int(byte >> 4)])
        output.append(hex[Int(byte & 0xF)])
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  private static func write(_ value: Any?, to output: inout [UInt8], depth: Int) -> Outcome {
    guard depth <= maximumDepth else { return .tooDeep }
    if let value, let outcome = writeExact(value, to: &output, depth: depth) { return outcome }
    guard let value = unwrap(value) else {
      output += "null".utf8
      return .written
    }
    switch value {  // the commonest exact types first: each case is a dynamic cast
    case let string as String: quote(string, to: &output)
    case let int as Int: output += String(int).utf8
    case let bool as Bool: output += (bool ? "true" : "false").utf8
    case let double as Double:
      guard double.isFinite else { return .notJSON }
      output += String(describing: double).utf8
    case is Void: output += "null".utf8
    case let json as any PlainJSONConvertible:
      return write(json.plainJSON, to: &output, depth: depth)
    case let integer as any BinaryInteger: output += String(describing: integer).utf8
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
      guard let data = try? encoder.encode(encodable) else { return .notJSON }
      output += data
    default: return .notJSON
    }
    return .written
  }

  /// Writes a value whose type is exactly one of the commonest (`String`, `Int`, `Bool`,
  /// `Double`, `[String: any Sendable]`, `[any Sendable]`) as the casts in ``write(_:to:depth:)``
  /// would, telling the type by its metadata first; nil for any other type. A dynamic cast that
  /// fails is slow (it searches conformances: about 200 ns each on the 2-CPU VM of
  /// `BENCHMARKS.md`), one to the exact type is not.
  private static func writeExact(_ value: Any, to output: inout [UInt8], depth: Int) -> Outcome? {
    let type = ObjectIdentifier(Swift.type(of: value))
    if type == ObjectIdentifier(String.self), let string = value as? String {
      quote(string, to: &output)
    } else if type == ObjectIdentifier(Int.self), let int = value as? Int {
      output += String(int).utf8
    } else if type == ObjectIdentifier(Bool.self), let bool = value as? Bool {
      output += (bool ? "true" : "false").utf8
    } else if type == ObjectIdentifier(Double.self), let double = value as? Double {
      guard double.isFinite else { return .notJSON }
      output += String(describing: double).utf8
    } else if type == ObjectIdentifier([String: any Sendable].self),
      let object = value as? [String: any Sendable]
    {
      return write(object: object, to: &output, depth: depth)
    } else if type == ObjectIdentifier([any Sendable].self), let array = value as? [any Sendable] {
      return write(array: array, to: &output, depth: depth)
    } else {
      return nil
    }
    return .written
  }

  private static func write<Element>(array: [Element], to output: inout [UInt8], depth: Int)
    -> Outcome
  {
    output.append(UInt8(ascii: "["))
    for (index, element) in array.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      let outcome = write(element, to: &output, depth: depth + 1)
      guard outcome == .written else { return outcome }
    }
    output.append(UInt8(ascii: "]"))
    return .written
  }

  private static func write<Value>(
    object: [String: Value], to output: inout [UInt8], depth: Int
  ) -> Outcome {
    output.append(UInt8(ascii: "{"))
    for (index, member) in object.sorted(by: { $0.key < $1.key }).enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      quote(member.key, to: &output)
      output.append(UInt8(ascii: ":"))
      let outcome = write(member.value, to: &output, depth: depth + 1)
      guard outcome == .written else { return outcome }
    }
    output.append(UInt8(ascii: "}"))
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
