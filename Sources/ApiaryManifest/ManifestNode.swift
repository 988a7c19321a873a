/// A parsed JSON or property-list value with the line and column it starts at (0 when the format
/// has none), so decoding problems can point at the value that caused them.
struct ManifestNode: Sendable {
  enum Value: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([ManifestNode])
    case object([Member])
  }

  /// An object member, in document order, with the position of its key.
  struct Member: Sendable {
    var key: String
    var line: Int
    var column: Int
    var value: ManifestNode
  }

  /// Key equality with a length check first: most keys compared while decoding differ in
  /// length, and that check is far cheaper than a full `String` comparison.
  @inline(__always)
  static func sameKey(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count && a == b
  }

  var value: Value
  var line: Int
  var column: Int

  /// The value without positions.
  var jsonValue: JSONValue {
    switch value {
    case .null: .null
    case .bool(let value): .bool(value)
    case .int(let value): .int(value)
    case .double(let value): .double(value)
    case .string(let value): .string(value)
    case .array(let items): .array(items.map(\.jsonValue))
    case .object(let members):
      .object(
        Dictionary(
          members.map { ($0.key, $0.value.jsonValue) }, uniquingKeysWith: { _, last in last })
      )
    }
  }

  /// How a user would describe this value in a "found …" message: `string "high"`, `integer 3`.
  var foundDescription: String {
    switch value {
    case .null: return "null"
    case .bool(let value): return "boolean \(value)"
    case .int(let value): return "integer \(value)"
    case .double(let value): return "number \(value)"
    case .string(let value):
      let shown = value.count > 40 ? value.prefix(40) + "…" : Substring(value)
      return "string \"\(shown)\""
    case .array: return "array"
    case .object: return "object"
    }
  }
}
