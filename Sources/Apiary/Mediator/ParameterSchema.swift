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
  }

  /// Checks local parameters. Returns `values` itself (no copy) unless a default is filled in
  /// or an `Int` is widened to a declared `double`. Undeclared keys pass through: local callers
  /// may hand actions closures and other values the manifest cannot describe.
  func check(_ values: [String: any Sendable]) throws(MediatorError) -> [String: any Sendable] {
    var result = values
    for entry in entries {
      guard let value = values[entry.name] else {
        if let fallback = entry.defaultValue {
          result[entry.name] = fallback
        } else if entry.isRequired {
          throw .missingParameter(
            target: target, action: action, key: entry.name, expected: entry.kind.rawValue)
        }
        continue
      }
      switch entry.kind {
      case .string: if value is String { continue }
      case .int: if value is Int { continue }
      case .bool: if value is Bool { continue }
      case .double:
        if value is Double { continue }
        if let integer = value as? Int {
          result[entry.name] = Double(integer)
          continue
        }
      case .array: if value is [any Sendable] { continue }
      case .object: if value is [String: any Sendable] { continue }
      case .any: continue
      }
      throw .wrongParameterType(
        target: target, action: action, key: entry.name, expected: entry.kind.rawValue,
        found: MediatorError.typeName(of: value))
    }
    return result
  }

  /// Converts a URL's query to the declared kinds. Undeclared keys are refused, only `array`
  /// (and `any`) parameters may repeat, and defaults are filled in.
  func convert(_ query: [(key: String, value: String)]) throws(MediatorError)
    -> [String: any Sendable]
  {
    for pair in query where !entries.contains(where: { $0.name == pair.key }) {
      throw .unexpectedParameter(target: target, action: action, key: pair.key)
    }
    var result: [String: any Sendable] = Dictionary(minimumCapacity: entries.count)
    for entry in entries {
      var texts: [String] = []
      for pair in query where pair.key == entry.name { texts.append(pair.value) }
      if texts.isEmpty {
        if let fallback = entry.defaultValue {
          result[entry.name] = fallback
        } else if entry.isRequired {
          throw .missingParameter(
            target: target, action: action, key: entry.name, expected: entry.kind.rawValue)
        }
      } else {
        result[entry.name] = try convert(texts, entry)
      }
    }
    return result
  }

  private func convert(_ texts: [String], _ entry: Entry) throws(MediatorError) -> any Sendable {
    switch entry.kind {
    case .array: return texts
    case .any: return texts.count == 1 ? texts[0] : texts
    default: break
    }
    guard texts.count == 1 else {
      throw .repeatedParameter(target: target, action: action, key: entry.name)
    }
    let text = texts[0]
    let converted: (any Sendable)? =
      switch entry.kind {
      case .string: text
      case .int: Int(text)
      case .double: Double(text).flatMap { $0.isFinite ? $0 : nil }
      case .bool: Self.bool(text)
      case .object: JSONText.object(text)
      case .array, .any: text
      }
    guard let converted else {
      throw .invalidParameterValue(
        target: target, action: action, key: entry.name,
        expected: entry.kind == .object ? "a JSON object" : entry.kind.rawValue, found: text)
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
    case .int: value.intValue
    case .double: value.doubleValue
    case .bool: value.boolValue
    case .array: value.arrayValue.map { _ in value.plainValue }
    case .object: value.objectValue.map { _ in value.plainValue }
    case .any: value.plainValue
    }
  }
}
