import ApiarySupport

/// Builds a property list's tree one value at a time for the XML and binary readers: open and
/// close arrays and dictionaries, set a dictionary's next key, attach values. It counts values
/// and depth against ``ManifestLimits``, reports repeated keys, and knows the key path of the
/// value being read for problems. Property lists carry no positions, so nodes have none.
struct PropertyListTree {
  let file: String
  private(set) var problems: [ManifestProblem] = []
  private var stack: [Frame] = []
  private var values = 0

  private struct Frame {
    var isDictionary: Bool
    var items: [ManifestNode] = []
    var members: [ManifestNode.Member] = []
    var key: String?
  }

  init(file: String) { self.file = file }

  /// Whether the value being read must be a dictionary key.
  var expectsKey: Bool { stack.last.map { $0.isDictionary && $0.key == nil } ?? false }

  mutating func setKey(_ key: String) throws(ManifestProblem) {
    guard expectsKey else { throw syntax("unexpected key") }
    stack[stack.count - 1].key = key
  }

  /// Counts one more value against `limits`.
  mutating func count(_ limits: ManifestLimits) throws(ManifestProblem) {
    values += 1
    guard values <= limits.values else { throw limits.valuesProblem(at: location) }
  }

  mutating func open(isDictionary: Bool, limits: ManifestLimits) throws(ManifestProblem) {
    guard stack.count < limits.depth else { throw limits.depthProblem(at: location) }
    stack.append(Frame(isDictionary: isDictionary))
  }

  /// Closes the innermost container, which must be a dictionary when `isDictionary`; nil when
  /// it is not.
  mutating func close(_ isDictionary: Bool) throws(ManifestProblem) -> ManifestNode? {
    guard let top = stack.last, top.isDictionary == isDictionary else { return nil }
    if let key = top.key { throw syntax("key '\(key)' has no value") }
    for (position, first) in ManifestNode.repeatedKeys(top.members) {
      let key = top.members[position].key
      var location = self.location
      location.keyPath = location.keyPath.isEmpty ? key : "\(location.keyPath).\(key)"
      problems.append(
        ManifestProblem(
          .duplicateKey, at: location,
          ManifestNode.repeatedKeyMessage(
            key, first: top.members[first].key, at: "entry \(first + 1) of this dictionary")))
    }
    stack.removeLast()
    let value: ManifestNode.Value = isDictionary ? .object(top.members) : .array(top.items)
    return ManifestNode(value: value, line: 0, column: 0)
  }

  /// Adds `node` to the innermost container; returns it when it is the root.
  mutating func attach(_ node: ManifestNode) throws(ManifestProblem) -> ManifestNode? {
    guard !stack.isEmpty else { return node }
    let top = stack.count - 1
    if stack[top].isDictionary {
      guard let key = stack[top].key else { throw syntax("expected a key before the value") }
      stack[top].members.append(ManifestNode.Member(key: key, line: 0, column: 0, value: node))
      stack[top].key = nil
    } else {
      stack[top].items.append(node)
    }
    return nil
  }

  /// Reports a value of a kind manifests do not use (`date`, `data`, `set`…), read as null.
  mutating func refuse(_ kind: String) {
    problems.append(
      ManifestProblem(
        .typeMismatch, at: location,
        "expected string, number, boolean, array or dictionary, found \(kind)"))
  }

  func syntax(_ message: String) -> ManifestProblem {
    ManifestProblem(.syntax, at: location, "not a valid property list: \(message)")
  }

  /// The file and the key path of the value being read.
  var location: SourceLocation {
    var path = ""
    for frame in stack {
      if frame.isDictionary {
        guard let key = frame.key else { break }
        path += path.isEmpty ? key : ".\(key)"
      } else {
        path += "[\(frame.items.count)]"
      }
    }
    return SourceLocation(file: file, keyPath: path)
  }

  /// A decimal (or `0x` hexadecimal) integer with optional sign and surrounding white space.
  static func integer(_ text: String) -> Int? {
    var digits = text.trimmingXMLSpace()
    let isNegative = digits.first == "-"
    if isNegative || digits.first == "+" { digits = digits.dropFirst() }
    var radix = 10
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      radix = 16
      digits = digits.dropFirst(2)
    }
    guard !digits.isEmpty, !digits.hasPrefix("-"), !digits.hasPrefix("+"),
      let magnitude = UInt64(digits, radix: radix)
    else { return nil }
    if isNegative {
      return magnitude <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- magnitude) : nil
    }
    return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
  }
}
