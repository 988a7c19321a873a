import ApiaryManifest

/// An action's declared parameters, prepared once when targets are added: checks local
/// parameters and converts URL query strings to the declared kinds.
struct ParameterSchema: Sendable {
  struct Entry: Sendable {
    let name: String
    let kind: ParameterManifest.Kind
    let isRequired: Bool
    /// The declared default as the plain value actions receive.
    let defaultValue: (any Sendable)?
  }

  let target: String
  let action: String
  let entries: [Entry]
  /// The entries' names and kinds, for the call path: searching them copies no `Entry`.
  private let names: [String]
  private let kinds: [ParameterManifest.Kind]

  init(module: String, target: String, action: ActionManifest) throws(MediatorError) {
    self.target = target
    self.action = action.name
    var entries: [Entry] = []
    for parameter in action.parameters {
      guard !entries.contains(where: { $0.name == parameter.name }) else {
        throw .duplicateParameter(
          module: module, target: target, action: action.name, key: parameter.name)
      }
      var plain: (any Sendable)?
      if let value = parameter.defaultValue, value != .null {
        plain = Self.plainDefault(value, kind: parameter.kind)
        guard plain != nil else {
          throw .invalidDefault(
            module: module, target: target, action: action.name, key: parameter.name,
            expected: parameter.kind.rawValue, found: value.kindName)
        }
      }
      entries.append(
        Entry(
          name: parameter.name, kind: parameter.kind, isRequired: parameter.isRequired,
          defaultValue: plain))
    }
    self.entries = entries
    self.names = entries.map(\.name)
    self.kinds = entries.map(\.kind)
  }

  /// Checks local parameters. Returns `values` itself (no copy) unless a default is filled in
  /// or an `Int` is widened to a declared `double`. Undeclared keys pass through: local callers
  /// may hand actions closures and other values the manifest cannot describe.
  ///
  /// Small dictionaries are walked and their keys compared with the declared names, which is
  /// cheaper than hashing every declared name.
  func check(_ values: [String: any Sendable]) throws(MediatorError) -> [String: any Sendable] {
    guard !names.isEmpty else { return values }
    var result = values
    if values.count <= 8, names.count <= 64 {
      var seen: UInt64 = 0
      for (key, value) in values {
        guard let index = names.firstIndex(of: key) else { continue }
        seen |= 1 << UInt64(index)
        if let widened = try check(value, kinds[index], key) { result[key] = widened }
      }
      guard seen != allSeen else { return result }
      for (index, entry) in entries.enumerated() where seen & (1 << UInt64(index)) == 0 {
        try fillIn(entry, &result)
      }
    } else {
      for entry in entries {
        if let value = values[entry.name] {
          if let widened = try check(value, entry.kind, entry.name) { result[entry.name] = widened }
        } else {
          try fillIn(entry, &result)
        }
      }
    }
    return result
  }

  /// Every declared parameter's bit, for ``check(_:)``.
  private var allSeen: UInt64 {
    names.count >= 64 ? .max : (1 << UInt64(names.count)) - 1
  }

  /// Nil when `value` fits `entry` as it is, the widened value for an `Int` given for a
  /// `double`; throws when it does not fit.
  @inline(__always)
  private func check(_ value: any Sendable, _ kind: ParameterManifest.Kind, _ key: String)
    throws(MediatorError) -> Double?
  {
    switch kind {
    case .string: if Self.isExactly(value, String.self) || value is String { return nil }
    case .int: if Self.isExactly(value, Int.self) || value is Int { return nil }
    case .bool: if Self.isExactly(value, Bool.self) || value is Bool { return nil }
    case .double:
      if Self.isExactly(value, Double.self) || value is Double { return nil }
      if let integer = value as? Int { return Double(integer) }
    case .array: if value is [any Sendable] { return nil }
    case .object: if value is [String: any Sendable] { return nil }
    case .any: return nil
    }
    throw .wrongParameterType(
      target: target, action: action, key: key, expected: kind.rawValue,
      found: MediatorError.typeName(of: value))
  }

  /// Fills in the default of an absent parameter, or throws when it is required.
  private func fillIn(_ entry: Entry, _ result: inout [String: any Sendable]) throws(MediatorError)
  {
    if let fallback = entry.defaultValue {
      result[entry.name] = fallback
    } else if entry.isRequired {
      throw .missingParameter(
        target: target, action: action, key: entry.name, expected: entry.kind.rawValue)
    }
  }

  /// A metatype comparison: much cheaper than a dynamic cast, and the common case for scalars.
  @inline(__always)
  private static func isExactly<V>(_ value: any Sendable, _ type: V.Type) -> Bool {
    ObjectIdentifier(Swift.type(of: value)) == ObjectIdentifier(type)
  }

  /// Converts a URL's query to the declared kinds. Undeclared keys are refused, only `array`
  /// (and `any`) parameters may repeat, and defaults are filled in.
  func convert(_ query: [RemoteURL.QueryItem]) throws(MediatorError)
    -> [String: any Sendable]
  {
    for pair in query where !names.contains(pair.key) {
      throw .unexpectedParameter(target: target, action: action, key: pair.key)
    }
    var result: [String: any Sendable] = Dictionary(minimumCapacity: names.count)
    for index in names.indices {
      let name = names[index]
      let kind = kinds[index]
      var first: String?
      var count = 0
      for pair in query where pair.key == name {
        if first == nil { first = pair.value }
        count += 1
      }
      guard let first else {
        try fillIn(entries[index], &result)
        continue
      }
      if kind == .array || (kind == .any && count > 1) {
        result[name] = query.filter { $0.key == name }.map(\.value)
      } else if count > 1 {
        throw .repeatedParameter(target: target, action: action, key: name)
      } else {
        result[name] = try convert(first, kind, name)
      }
    }
    return result
  }

  private func convert(_ text: String, _ kind: ParameterManifest.Kind, _ key: String)
    throws(MediatorError) -> any Sendable
  {
    let converted: (any Sendable)? =
      switch kind {
      case .string, .any, .array: text
      case .int: Int(text)
      case .double: Double(text).flatMap { $0.isFinite ? $0 : nil }
      case .bool: Self.bool(text)
      case .object:
        switch JSONText.object(text) {
        case .success(let object): object
        case .failure(let refusal):
          throw .invalidParameterValue(
            target: target, action: action, key: key,
            expected: "a JSON object" + (refusal.reason.map { " (\($0))" } ?? ""), found: text)
        }
      }
    guard let converted else {
      throw .invalidParameterValue(
        target: target, action: action, key: key, expected: kind.rawValue, found: text)
    }
    return converted
  }

  private static func bool(_ text: String) -> Bool? {
    switch text {
    case "true", "1", "yes": true
    case "false", "0", "no": false
    default: nil
    }
  }

  /// The default as the value a caller would pass, or nil when it does not fit `kind`.
  private static func plainDefault(_ value: JSONValue, kind: ParameterManifest.Kind)
    -> (any Sendable)?
  {
    switch kind {
    case .string: value.stringValue
    case .int: if case .int(let integer) = value { integer } else { nil }
    case .double: value.doubleValue
    case .bool: value.boolValue
    case .array: value.arrayValue.map { _ in value.plainValue }
    case .object: value.objectValue.map { _ in value.plainValue }
    case .any: value.plainValue
    }
  }
}
