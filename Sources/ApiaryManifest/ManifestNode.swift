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

  /// Members that repeat an earlier key, with the position of that earlier member. Keys that
  /// differ only in Unicode normalisation (`é` as one scalar or as `e` and a combining accent)
  /// repeat each other too: Swift compares strings by canonical equivalence, so they would
  /// silently become one dictionary key.
  static func repeatedKeys(_ members: [Member]) -> [(position: Int, first: Int)] {
    guard members.count > 1 else { return [] }
    var result: [(position: Int, first: Int)] = []
    // Small objects (nearly all) are scanned; big ones use a dictionary to stay linear.
    if members.count <= 16 {
      for position in 1..<members.count {
        let key = members[position].key
        if let first = members[..<position].firstIndex(where: { $0.key == key }) {
          result.append((position, first))
        }
      }
    } else {
      var firstIndex: [String: Int] = [:]
      for (position, member) in members.enumerated() {
        if let first = firstIndex[member.key] {
          result.append((position, first))
        } else {
          firstIndex[member.key] = position
        }
      }
    }
    return result
  }

  /// The message for key `key` repeating `first`, declared `at`.
  static func repeatedKeyMessage(_ key: String, first: String, at place: String) -> String {
    if key.utf8.elementsEqual(first.utf8) {
      return "duplicate key '\(key)' (first at \(place)); only one may be given"
    }
    return "key '\(key)' differs from key '\(first)' (at \(place)) only in Unicode "
      + "normalisation, so both would be one key; spell them the same way or rename one"
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

extension ManifestNode {
  /// The value at `keyPath` (`modules[0].targets[1].type`, as problems name places), or nil
  /// when there is none.
  ///
  /// ```swift
  /// root.node(at: "modules[0].type")?.line  // the line of the type's value
  /// ```
  func node(at keyPath: String) -> ManifestNode? {
    var node = self
    for component in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
      var rest = Substring(component)
      let key = rest.prefix { $0 != "[" }
      rest = rest.dropFirst(key.count)
      if !key.isEmpty {
        guard case .object(let members) = node.value,
          let member = members.first(where: { $0.key == key })
        else { return nil }
        node = member.value
      }
      while rest.hasPrefix("[") {
        guard let close = rest.firstIndex(of: "]"),
          let index = Int(rest[rest.index(after: rest.startIndex)..<close]),
          case .array(let items) = node.value, items.indices.contains(index)
        else { return nil }
        node = items[index]
        rest = rest[rest.index(after: close)...]
      }
      guard rest.isEmpty else { return nil }
    }
    return node
  }
}
