import ApiarySupport

/// A JSON-shaped value: what a manifest's free-form `config` object and parameter defaults hold.
///
/// ```swift
/// let value: JSONValue = ["title": "Hello", "tags": ["a", "b"], "pinned": true]
/// value["title"]?.stringValue  // "Hello"
/// ```
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// The name of this value's kind as a user would write it: `string`, `integer`, `object`…
  package var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .int: "integer"
    case .double: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  package var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  package var intValue: Int? {
    switch self {
    case .int(let value): return value
    case .double(let value) where value.rounded() == value && abs(value) < 9e15: return Int(value)
    default: return nil
    }
  }

  package var doubleValue: Double? {
    switch self {
    case .int(let value): return Double(value)
    case .double(let value): return value
    default: return nil
    }
  }

  package var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  package var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  package var objectValue: [String: JSONValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The member named `key` when this is an object.
  package subscript(key: String) -> JSONValue? {
    objectValue?[key]
  }

  /// The value as plain Swift values (`String`, `Int`, `Double`, `Bool`, arrays, dictionaries;
  /// `nil` for `null`), as actions and tools expect them.
  package var plainValue: (any Sendable)? {
    switch self {
    case .null: nil
    case .bool(let value): value
    case .int(let value): value
    case .double(let value): value
    case .string(let value): value
    case .array(let values): values.map { $0.plainValue }
    case .object(let members): members.mapValues { $0.plainValue }
    }
  }
}

extension JSONValue: PlainJSONConvertible {
  package var plainJSON: Any? { plainValue }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
