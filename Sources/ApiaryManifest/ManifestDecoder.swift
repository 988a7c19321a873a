import ApiarySupport

/// Turns parsed manifest trees into the model types, collecting every problem it meets: wrong
/// types, unknown keys (with the closest known key), missing required keys, bad enum values,
/// invalid names and unsupported schema versions. It never stops at the first problem.
struct ManifestDecoder {
  /// An object being decoded: its members, key path and position.
  struct Fields {
    var node: ManifestNode
    var members: [ManifestNode.Member]
    var path: String

    func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    subscript(key: String) -> ManifestNode? {
      members.first { ManifestNode.sameKey($0.key, key) }?.value
    }
  }

  static let applicationKeys = [
    "schemaVersion", "name", "scheme", "environment", "modules", "config", "fallback", "limits",
    "allowOutsidePaths",
  ]
  static let limitKeys = ["fileSize", "depth", "values"]
  static let moduleFileKeys = ["schemaVersion", "modules"]
  static let moduleKeys = [
    "name", "type", "level", "priority", "dependencies", "async", "timeout", "enabled",
    "optional", "config", "services", "targets", "library", "version", "sha256", "activation",
    "activationEvents", "placement", "command", "restart", "healthCheck",
  ]
  static let serviceKeys = ["protocol", "implementation", "name", "scope", "rank"]
  static let targetKeys = ["name", "type", "actions"]
  static let actionKeys = ["name", "remote", "summary", "returns", "parameters", "timeout"]
  static let parameterKeys = ["name", "type", "required", "default"]
  static let beeHiveFileKeys = ["moduleClasses"]
  static let beeHiveModuleKeys = ["moduleClass", "moduleLevel", "modulePriority"]

  let file: String
  var problems: [ManifestProblem] = []

  init(file: String) { self.file = file }

  func location(_ path: String, _ node: ManifestNode) -> SourceLocation {
    SourceLocation(
      file: file, keyPath: path, line: node.line > 0 ? node.line : nil,
      column: node.column > 0 ? node.column : nil)
  }

  mutating func report(
    _ kind: ManifestProblem.Kind, _ path: String, _ node: ManifestNode, _ message: String
  ) {
    problems.append(ManifestProblem(kind, at: location(path, node), message))
  }

  // MARK: Documents

  /// Decodes an application manifest. `modulePaths` is returned even when the manifest is
  /// otherwise unusable, so module files can still be checked.
  mutating func application(_ root: ManifestNode) -> (
    application: ApplicationManifest?, modulePaths: [(path: String, location: SourceLocation)]
  ) {
    guard let fields = object(root, "", keys: Self.applicationKeys),
      let version = schemaVersion(fields)
    else { return (nil, []) }
    let name = string(fields, "name", required: true)
    if let name, name.isEmpty {
      report(.invalidValue, "name", fields["name"] ?? root, "expected a non-empty name")
    }
    let scheme = string(fields, "scheme", required: true)
    if let scheme, !Self.isURLScheme(scheme), let node = fields["scheme"] {
      report(
        .invalidValue, "scheme", node,
        "expected a URL scheme (a letter, then letters, digits, '+', '-' or '.'), found "
          + node.foundDescription)
    }
    let environment = enumValue(fields, "environment", Environment.self) ?? .dev
    var modulePaths: [(path: String, location: SourceLocation)] = []
    if let items = array(fields, "modules") {
      for (node, path) in items {
        guard let text = string(node, path) else { continue }
        if text.isEmpty {
          report(.invalidValue, path, node, "expected a file or directory path, found \"\"")
        } else if checkPath(text, path, node, what: "a path") {
          modulePaths.append((text, location(path, node)))
        }
      }
    } else if fields["modules"] == nil {
      modulePaths = [("modules", location("", root))]
    }
    let config = config(fields, "config")
    var fallback: ActionReference?
    if let node = fields["fallback"],
      let inner = object(node, "fallback", keys: ["target", "action"])
    {
      let target = string(inner, "target", required: true)
      let action = string(inner, "action", required: true)
      if let target, let action { fallback = ActionReference(target: target, action: action) }
    }
    let limits = self.limits(fields)
    let allowsOutsidePaths = bool(fields, "allowOutsidePaths") ?? false
    guard let name, let scheme, !name.isEmpty, Self.isURLScheme(scheme)
    else { return (nil, modulePaths) }
    let application = ApplicationManifest(
      schemaVersion: version, name: name, scheme: scheme, environment: environment,
      modulePaths: modulePaths.map(\.path), config: config ?? [:], fallback: fallback,
      limits: limits, allowsOutsidePaths: allowsOutsidePaths, source: location("", root))
    return (application, modulePaths)
  }

  /// `limits`, each a positive integer; the depth at most ``ManifestLimits/maximumDepth``.
  mutating func limits(_ fields: Fields) -> ManifestLimits {
    var limits = ManifestLimits.default
    guard let node = fields["limits"],
      let inner = object(node, fields.child("limits"), keys: Self.limitKeys)
    else { return limits }
    for key in Self.limitKeys {
      guard let value = int(inner, key), let valueNode = inner[key] else { continue }
      let most = key == "depth" ? ManifestLimits.maximumDepth : Int.max
      guard value > 0, value <= most else {
        report(
          .invalidValue, inner.child(key), valueNode,
          "expected an integer from 1 to \(most), found \(valueNode.foundDescription)")
        continue
      }
      switch key {
      case "fileSize": limits.fileSize = value
      case "depth": limits.depth = value
      default: limits.values = value
      }
    }
    return limits
  }

  /// Decodes a module manifest file: `{"schemaVersion": 1, "modules": [...]}`, or BeeHive's
  /// `{"moduleClasses": [...]}` property list.
  mutating func moduleFile(_ root: ManifestNode) -> [ModuleManifest] {
    if case .object(let members) = root.value,
      members.contains(where: { $0.key == "moduleClasses" }),
      !members.contains(where: { $0.key == "modules" })
    {
      return beeHiveFile(root)
    }
    guard let fields = object(root, "", keys: Self.moduleFileKeys), schemaVersion(fields) != nil,
      let items = array(fields, "modules", required: true)
    else { return [] }
    return items.compactMap { module($0.node, $0.path) }
  }

  /// Reads `schemaVersion`; nil (and a problem) when it is missing, mistyped or unsupported.
  mutating func schemaVersion(_ fields: Fields) -> Int? {
    guard let version = int(fields, "schemaVersion", required: true) else { return nil }
    guard version == ApplicationManifest.supportedSchemaVersion else {
      report(
        .unsupportedSchemaVersion, "schemaVersion", fields["schemaVersion"] ?? fields.node,
        "unsupported schemaVersion \(version); this build reads schemaVersion "
          + "\(ApplicationManifest.supportedSchemaVersion)")
      return nil
    }
    return version
  }

  // MARK: Sections

  mutating func module(_ node: ManifestNode, _ path: String) -> ModuleManifest? {
    guard let fields = object(node, path, keys: Self.moduleKeys) else { return nil }
    let name = string(fields, "name", required: true)
    if let name { checkIdentifier(name, fields, "name", what: "a module name") }
    let type = string(fields, "type", required: true)
    let level = enumValue(fields, "level", ModuleManifest.Level.self) ?? .normal
    let priority = int(fields, "priority") ?? 0
    var dependencyIndices: [Int]?
    let dependencies = strings(fields, "dependencies", kept: &dependencyIndices) ?? []
    let isAsync = bool(fields, "async") ?? false
    let timeout = seconds(fields, "timeout") ?? ModuleManifest.defaultStartTimeout
    let isEnabled = bool(fields, "enabled") ?? true
    let isOptional = bool(fields, "optional") ?? false
    let config = config(fields, "config") ?? [:]
    let services = (array(fields, "services") ?? []).compactMap { service($0.node, $0.path) }
    let targets = (array(fields, "targets") ?? []).compactMap { target($0.node, $0.path) }
    let plugin = pluginReference(fields)
    let activation = enumValue(fields, "activation", ModuleManifest.Activation.self) ?? .eager
    let activationEvents = strings(fields, "activationEvents") ?? []
    let (placement, command) = placement(fields)
    let restart = restartPolicy(fields) ?? .never
    let healthCheck = healthCheck(fields)
    guard let name, let type else { return nil }
    var module = ModuleManifest(
      name: name, type: type, level: level, priority: priority, dependencies: dependencies,
      isAsync: isAsync, startTimeout: timeout, isEnabled: isEnabled, isOptional: isOptional,
      config: config, services: services, targets: targets, plugin: plugin,
      source: location(path, node), activation: activation, activationEvents: activationEvents,
      placement: placement, command: command, restart: restart, healthCheck: healthCheck)
    if dependencyIndices != nil { module.dependencyIndices = dependencyIndices }
    if plugin == nil, fields["library"] != nil { module.namesBrokenPlugin = true }
    return module
  }

  mutating func service(_ node: ManifestNode, _ path: String) -> ServiceManifest? {
    guard let fields = object(node, path, keys: Self.serviceKeys) else { return nil }
    let protocolName = string(fields, "protocol", required: true)
    let implementation = string(fields, "implementation", required: true)
    let name = string(fields, "name")
    let scope = enumValue(fields, "scope", Scope.self) ?? .singleton
    let rank = int(fields, "rank")
    guard let protocolName, let implementation else { return nil }
    return ServiceManifest(
      protocolName: protocolName, implementation: implementation, name: name, scope: scope,
      rank: rank, source: location(path, node))
  }

  mutating func target(_ node: ManifestNode, _ path: String) -> TargetManifest? {
    guard let fields = object(node, path, keys: Self.targetKeys) else { return nil }
    let name = string(fields, "name", required: true)
    if let name { checkIdentifier(name, fields, "name", what: "a target name") }
    let type = string(fields, "type", required: true)
    let actions = (array(fields, "actions") ?? []).compactMap { action($0.node, $0.path) }
    guard let name, let type else { return nil }
    return TargetManifest(name: name, type: type, actions: actions, source: location(path, node))
  }

  mutating func action(_ node: ManifestNode, _ path: String) -> ActionManifest? {
    guard let fields = object(node, path, keys: Self.actionKeys) else { return nil }
    let name = string(fields, "name", required: true)
    if let name { checkIdentifier(name, fields, "name", what: "an action name") }
    let isRemote = bool(fields, "remote") ?? false
    let summary = string(fields, "summary")
    let returns = enumValue(fields, "returns", ParameterManifest.Kind.self) ?? .any
    var parameters: [ParameterManifest] = []
    var indices: [Int] = []
    let items = array(fields, "parameters") ?? []
    for (index, item) in items.enumerated() {
      guard let parameter = parameter(item.node, item.path) else { continue }
      parameters.append(parameter)
      indices.append(index)
    }
    let timeout = seconds(fields, "timeout") ?? ActionManifest.defaultTimeout
    guard let name else { return nil }
    var action = ActionManifest(
      name: name, isRemote: isRemote, parameters: parameters, returns: returns, summary: summary,
      timeout: timeout, source: location(path, node))
    if parameters.count < items.count { action.parameterIndices = indices }
    return action
  }

  mutating func parameter(_ node: ManifestNode, _ path: String) -> ParameterManifest? {
    guard let fields = object(node, path, keys: Self.parameterKeys) else { return nil }
    let name = string(fields, "name", required: true)
    if let name, name.isEmpty {
      report(
        .invalidValue, fields.child("name"), fields["name"] ?? node, "expected a non-empty name")
    }
    let kind = enumValue(fields, "type", ParameterManifest.Kind.self, required: true)
    let isRequired = bool(fields, "required") ?? false
    let defaultValue = fields["default"]?.jsonValue
    guard let name, let kind else { return nil }
    return ParameterManifest(
      name: name, kind: kind, isRequired: isRequired, defaultValue: defaultValue)
  }

  /// BeeHive's module list: `moduleClasses` of `{moduleClass, moduleLevel, modulePriority}`.
  /// The module's name is the class name's last component, lowercased.
  mutating func beeHiveFile(_ root: ManifestNode) -> [ModuleManifest] {
    guard let fields = object(root, "", keys: Self.beeHiveFileKeys),
      let items = array(fields, "moduleClasses", required: true)
    else { return [] }
    return items.compactMap { node, path in
      guard let fields = object(node, path, keys: Self.beeHiveModuleKeys),
        let type = string(fields, "moduleClass", required: true)
      else { return nil }
      let name = String(type.split(separator: ".").last ?? Substring(type)).lowercased()
      var level = ModuleManifest.Level.normal
      if let value = looseInt(fields, "moduleLevel") {
        if value == 0 {
          level = .basic
        } else if value != 1, let levelNode = fields["moduleLevel"] {
          report(
            .invalidValue, fields.child("moduleLevel"), levelNode,
            "expected 0 (basic) or 1 (normal), found \(levelNode.foundDescription)")
        }
      }
      return ModuleManifest(
        name: name, type: type, level: level, priority: looseInt(fields, "modulePriority") ?? 0,
        source: location(path, node))
    }
  }

  // MARK: Typed access

  /// The members of an object, after reporting unknown keys; nil (and a problem) if `node` is
  /// not an object.
  mutating func object(_ node: ManifestNode, _ path: String, keys: [String]) -> Fields? {
    guard case .object(let members) = node.value else {
      report(.typeMismatch, path, node, "expected object, found \(node.foundDescription)")
      return nil
    }
    let fields = Fields(node: node, members: members, path: path)
    for member in members where !keys.contains(where: { ManifestNode.sameKey($0, member.key) }) {
      let hint = Suggestion.closest(to: member.key, in: keys).map { "did you mean '\($0)'?" }
      problems.append(
        ManifestProblem(
          .unknownKey,
          at: SourceLocation(
            file: file, keyPath: fields.child(Self.clipped(member.key)),
            line: member.line > 0 ? member.line : nil,
            column: member.column > 0 ? member.column : nil),
          "unknown key '\(Self.clipped(member.key))' "
            + "(\(hint ?? "expected one of " + keys.joined(separator: ", ")))"
        ))
    }
    return fields
  }

  /// `key` as a problem shows it: at most 64 characters, then "…" (a key is echoed, and a file
  /// may hold a key of a megabyte).
  static func clipped(_ key: String) -> String {
    key.count <= 64 ? key : key.prefix(64) + "…"
  }

  /// The value at `key`, reporting a missing required key at the object.
  mutating func member(_ fields: Fields, _ key: String, _ expected: String, required: Bool)
    -> ManifestNode?
  {
    if let node = fields[key] { return node }
    if required {
      report(
        .missingKey, fields.path, fields.node, "missing required key '\(key)' (\(expected))")
    }
    return nil
  }

  mutating func string(_ fields: Fields, _ key: String, required: Bool = false) -> String? {
    guard let node = member(fields, key, "string", required: required) else { return nil }
    return string(node, fields.child(key))
  }

  mutating func string(_ node: ManifestNode, _ path: @autoclosure () -> String) -> String? {
    if case .string(let value) = node.value { return value }
    report(.typeMismatch, path(), node, "expected string, found \(node.foundDescription)")
    return nil
  }

  /// An integer: written without a fraction or exponent in JSON (`3`, not `3.0`), an
  /// `<integer>` in a plist.
  mutating func int(_ fields: Fields, _ key: String, required: Bool = false) -> Int? {
    guard let node = member(fields, key, "integer", required: required) else { return nil }
    if case .int(let value) = node.value { return value }
    reportNotInteger(fields.child(key), node)
    return nil
  }

  /// An integer written as a number or as a string of digits (BeeHive plists use both).
  mutating func looseInt(_ fields: Fields, _ key: String) -> Int? {
    guard let node = fields[key] else { return nil }
    if case .int(let value) = node.value { return value }
    if case .string(let text) = node.value, let value = Int(text) { return value }
    reportNotInteger(fields.child(key), node)
    return nil
  }

  /// `expected integer, found …`; for a whole number written as `3.0`, how to write it.
  mutating func reportNotInteger(_ path: String, _ node: ManifestNode) {
    var hint = ""
    if case .double(let value) = node.value, let whole = Int(exactly: value) {
      hint = " (write it as \(whole): an integer has no fraction or exponent)"
    }
    report(.typeMismatch, path, node, "expected integer, found \(node.foundDescription)\(hint)")
  }

  /// The most seconds a time value may give (about 11.6 days), as `--shutdown-timeout`: a
  /// time limit, backoff or interval longer than that is a mistake, and 1e300 s is no duration.
  static let maximumSeconds = 1_000_000.0

  /// Whether `value` is a number of seconds a manifest may give: greater than 0 and at most
  /// ``maximumSeconds``.
  static func isSeconds(_ value: Double) -> Bool { value > 0 && value <= maximumSeconds }

  /// A number of seconds greater than 0 and at most ``maximumSeconds``, or nil (and a problem)
  /// when absent or not one.
  mutating func seconds(_ fields: Fields, _ key: String) -> Double? {
    guard let value = double(fields, key), let node = fields[key] else { return nil }
    guard Self.isSeconds(value) else {
      report(
        .invalidValue, fields.child(key), node,
        "expected a number of seconds greater than 0 and at most 1000000, found "
          + node.foundDescription)
      return nil
    }
    return value
  }

  mutating func double(_ fields: Fields, _ key: String) -> Double? {
    guard let node = fields[key] else { return nil }
    if let value = node.jsonValue.doubleValue { return value }
    report(
      .typeMismatch, fields.child(key), node, "expected number, found \(node.foundDescription)")
    return nil
  }

  mutating func bool(_ fields: Fields, _ key: String) -> Bool? {
    guard let node = fields[key] else { return nil }
    if case .bool(let value) = node.value { return value }
    report(
      .typeMismatch, fields.child(key), node, "expected boolean, found \(node.foundDescription)")
    return nil
  }

  mutating func array(_ fields: Fields, _ key: String, required: Bool = false) -> [(
    node: ManifestNode, path: String
  )]? {
    guard let node = member(fields, key, "array", required: required) else { return nil }
    guard case .array(let items) = node.value else {
      report(
        .typeMismatch, fields.child(key), node, "expected array, found \(node.foundDescription)")
      return nil
    }
    let path = fields.child(key)
    return items.enumerated().map { ($1, Self.indexed(path, $0)) }
  }

  /// `path[index]`, built with one allocation: every module, service, target and action gets
  /// one of these as its key path, so this is on the hot path of loading.
  static func indexed(_ path: String, _ index: Int) -> String {
    var digits = 1
    var rest = index / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    let count = path.utf8.count + digits + 2
    return String(unsafeUninitializedCapacity: count) { buffer in
      var position = buffer.initialize(fromContentsOf: path.utf8)
      buffer[position] = UInt8(ascii: "[")
      position += digits
      var value = index
      for offset in 0..<digits {
        buffer[position - offset] = UInt8(ascii: "0") + UInt8(value % 10)
        value /= 10
      }
      buffer[position + 1] = UInt8(ascii: "]")
      return count
    }
  }

  /// An array of strings; wrong elements are reported and left out.
  mutating func strings(_ fields: Fields, _ key: String) -> [String]? {
    var kept: [Int]?
    return strings(fields, key, kept: &kept)
  }

  /// An array of strings, and when wrong elements were left out, the index in the array of
  /// each string kept, so later problems name the index the file has.
  mutating func strings(_ fields: Fields, _ key: String, kept: inout [Int]?) -> [String]? {
    guard let node = fields[key] else { return nil }
    guard case .array(let items) = node.value else {
      report(
        .typeMismatch, fields.child(key), node, "expected array, found \(node.foundDescription)")
      return nil
    }
    var strings: [String] = []
    strings.reserveCapacity(items.count)
    var indices: [Int] = []
    for (index, item) in items.enumerated() {
      if case .string(let value) = item.value {
        strings.append(value)
        indices.append(index)
      } else {
        report(
          .typeMismatch, Self.indexed(fields.child(key), index), item,
          "expected string, found \(item.foundDescription)")
      }
    }
    kept = strings.count < items.count ? indices : nil
    return strings
  }

  mutating func config(_ fields: Fields, _ key: String) -> [String: JSONValue]? {
    guard let node = fields[key] else { return nil }
    guard case .object = node.value, case .object(let values) = node.jsonValue else {
      report(
        .typeMismatch, fields.child(key), node, "expected object, found \(node.foundDescription)")
      return nil
    }
    return values
  }

  mutating func enumValue<Value: RawRepresentable<String> & CaseIterable>(
    _ fields: Fields, _ key: String, _ type: Value.Type, required: Bool = false
  ) -> Value? {
    guard let node = fields[key] else {
      if required { _ = member(fields, key, Self.oneOf(Value.self), required: true) }
      return nil
    }
    if case .string(let text) = node.value, let value = Value(rawValue: text) { return value }
    let allowed = Value.allCases.map(\.rawValue)
    let expected = Self.oneOf(Value.self)
    var hint = ""
    if case .string(let text) = node.value { hint = Suggestion.hint(for: text, in: allowed) }
    report(
      .invalidValue, fields.child(key), node,
      "expected \(expected), found \(node.foundDescription)\(hint)")
    return nil
  }

  static func oneOf<Value: RawRepresentable<String> & CaseIterable>(_ type: Value.Type) -> String {
    "one of " + Value.allCases.map(\.rawValue).joined(separator: ", ")
  }

  // MARK: Names

  /// Reports `name` unless it is a letter followed by letters, digits, `_` or `-`; `what` is
  /// the kind of name with its article (`an action name`).
  mutating func checkIdentifier(_ name: String, _ fields: Fields, _ key: String, what: String) {
    guard !Self.isIdentifier(name), let node = fields[key] else { return }
    report(
      .invalidValue, fields.child(key), node,
      "expected \(what) of a letter followed by letters, digits, '_' or '-', found "
        + node.foundDescription)
  }

  static func isIdentifier(_ name: String) -> Bool {
    isASCIIName(name, also: "_-")
  }

  /// Whether `text`, a path or an argument (`what`, with its article), holds no NUL character,
  /// which would end it early for the C library (the file read would be another); reports one
  /// that does.
  mutating func checkPath(
    _ text: String, _ keyPath: String, _ node: ManifestNode, what: String
  ) -> Bool {
    guard Self.containsNUL(text) else { return true }
    report(
      .invalidValue, keyPath, node,
      "expected \(what), found one that contains a NUL character (\\u0000), which would cut it "
        + "short: " + node.foundDescription)
    return false
  }

  static func containsNUL(_ text: String) -> Bool { text.utf8.contains(0) }

  static func isURLScheme(_ scheme: String) -> Bool {
    isASCIIName(scheme, also: "+-.")
  }
}
