import ApiarySupport

/// Decoding a JSON module file straight from the parser's tokens, with no positioned tree in
/// between: the way loading reads a valid file. Keys are matched on their bytes, each value is
/// read into the field it belongs to, and positions (file, key path, line, column) are those
/// the tree would give.
///
/// It reads every key of a JSON module file and accepts only what ``ManifestDecoder`` would
/// accept without a problem. Anything else (a syntax error, an unknown, repeated or mistyped
/// key, a bad value, a limit, a key with an escape, an integer written as `3.0`) stops it with
/// nil, and the file is then parsed into the tree and decoded as before, which reports every
/// problem exactly as it always did. A rule added to ``ManifestDecoder`` must be added here
/// too (a key added there only is declined here, so it is never lost); `ModuleFileTokenTests`
/// compares the two on valid files and on seeded random edits of them.
///
/// ```swift
/// var text = #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "M.A"}]}"#
/// let modules = text.withUTF8 {
///   JSONParser.decodeModuleFile(UnsafeRawBufferPointer($0), file: "a.json", limits: .default)
/// }  // [a]
/// ```
extension JSONParser {
  /// With `repeated`, values repeated across modules are shared (see ``RepeatedValues``).
  static func decodeModuleFile(
    _ bytes: UnsafeRawBufferPointer, file: String, limits: ManifestLimits,
    repeated: RepeatedValues? = nil
  ) -> [ModuleManifest]? {
    var parser = JSONParser(bytes: bytes.bindMemory(to: UInt8.self), file: file, limits: limits)
    parser.repeated = repeated
    return try? parser.moduleFile()
  }

  /// Thrown to hand the file to the tree; never shown.
  private var declined: ManifestProblem {
    ManifestProblem(.syntax, at: SourceLocation(file: file), "left to the positioned tree")
  }

  private mutating func moduleFile() throws(ManifestProblem) -> [ModuleManifest] {
    skipByteOrderMark()
    skipWhitespace()
    var (version, modules): (Int?, [ModuleManifest]?) = (nil, nil)
    try object(depth: 0) { (parser, key) throws(ManifestProblem) in
      if Self.equals(key, "schemaVersion"), version == nil {
        guard case .int(let value) = try parser.number() else { throw parser.declined }
        version = value
      } else if Self.equals(key, "modules"), modules == nil {
        modules = try parser.list(depth: 1, "modules") { (parser, path) throws(ManifestProblem) in
          try parser.module(path)
        }
      } else {
        throw parser.declined
      }
    }
    skipWhitespace()
    guard version == ApplicationManifest.supportedSchemaVersion, let modules, current == nil
    else { throw declined }
    return modules
  }

  /// The keys of a module this decoder reads, one bit each, so a repeated key is seen at once.
  private enum ModuleKey: Int, CaseIterable {
    case name, type, level, priority, dependencies, async, timeout, enabled, optional, config
    case services, library, version, sha256, activation, activationEvents, placement
    case targets, command, restart, healthCheck

    static let spellings: [StaticString] = [
      "name", "type", "level", "priority", "dependencies", "async", "timeout", "enabled",
      "optional", "config", "services", "library", "version", "sha256", "activation",
      "activationEvents", "placement", "targets", "command", "restart", "healthCheck",
    ]

    /// The key spelt `key`: its length and first letters name one candidate, compared whole.
    init?(_ key: UnsafeBufferPointer<UInt8>) {
      guard key.count >= 4 else { return nil }
      let guess: ModuleKey? =
        switch (key.count, key[0]) {
        case (4, UInt8(ascii: "n")): .name
        case (4, UInt8(ascii: "t")): .type
        case (5, UInt8(ascii: "l")): .level
        case (5, UInt8(ascii: "a")): .async
        case (6, UInt8(ascii: "c")): .config
        case (6, UInt8(ascii: "s")): .sha256
        case (7, UInt8(ascii: "t")): key[1] == UInt8(ascii: "i") ? .timeout : .targets
        case (7, UInt8(ascii: "e")): .enabled
        case (7, UInt8(ascii: "l")): .library
        case (7, UInt8(ascii: "v")): .version
        case (7, UInt8(ascii: "c")): .command
        case (7, UInt8(ascii: "r")): .restart
        case (8, UInt8(ascii: "p")): .priority
        case (8, UInt8(ascii: "o")): .optional
        case (8, UInt8(ascii: "s")): .services
        case (9, _): .placement
        case (10, _): .activation
        case (11, _): .healthCheck
        case (12, _): .dependencies
        case (16, _): .activationEvents
        default: nil
        }
      guard let guess, JSONParser.equals(key, Self.spellings[guess.rawValue]) else { return nil }
      self = guess
    }
  }

  private mutating func module(_ path: String) throws(ManifestProblem) -> ModuleManifest {
    let (line, column) = (self.line, self.column)
    var seen = 0
    var name: String?
    var type: String?
    var level = ModuleManifest.Level.normal
    var priority = 0
    var dependencies: [String] = []
    var isAsync = false
    var timeout = ModuleManifest.defaultStartTimeout
    var isEnabled = true
    var isOptional = false
    var config: [String: JSONValue] = [:]
    var services: [ServiceManifest] = []
    var library: (text: String, line: Int, column: Int)?
    var version: String?
    var sha256: String?
    var activation = ModuleManifest.Activation.eager
    var activationEvents: [String] = []
    var placement = ModuleManifest.Placement.host
    var targets: [TargetManifest] = []
    var command: [String]?
    var restart = RestartPolicy.never
    var healthCheck: HealthCheckManifest?
    try object(depth: 2) { (parser, raw) throws(ManifestProblem) in
      guard let key = ModuleKey(raw), seen & (1 << key.rawValue) == 0 else {
        throw parser.declined
      }
      seen |= 1 << key.rawValue
      switch key {
      case .name: name = try parser.identifier()
      case .type: type = try parser.repeatedString()
      case .level: level = try parser.enumValue()
      case .priority:
        guard case .int(let value) = try parser.number() else { throw parser.declined }
        priority = value
      case .dependencies: dependencies = try parser.strings(depth: 3)
      case .async: isAsync = try parser.bool()
      case .timeout: timeout = try parser.seconds()
      case .enabled: isEnabled = try parser.bool()
      case .optional: isOptional = try parser.bool()
      case .config:
        guard parser.current == UInt8(ascii: "{"),
          case .object(let values) = try parser.jsonValue(depth: 3)
        else { throw parser.declined }
        config = values
      case .services:
        services = try parser.list(depth: 3, path + ".services") {
          (parser, path) throws(ManifestProblem) in
          try parser.service(path)
        }
      case .library:
        let (line, column) = (parser.line, parser.column)
        library = (try parser.string(), line, column)
        guard let text = library?.text, !text.isEmpty, !ManifestDecoder.containsNUL(text) else {
          throw parser.declined
        }
      case .version: version = try parser.string()
      case .sha256:
        let digest = try parser.string()
        guard digest.utf8.count == 64, digest.lowercased().allSatisfy(\.isHexDigit) else {
          throw parser.declined
        }
        sha256 = digest.lowercased()
      case .activation: activation = try parser.enumValue()
      case .activationEvents:
        let events = try parser.strings(depth: 3)
        activationEvents = parser.repeated?.list(events) ?? events
      case .placement: placement = try parser.enumValue()
      case .targets:
        targets = try parser.list(depth: 3, path + ".targets") {
          (parser, path) throws(ManifestProblem) in
          try parser.target(path)
        }
      case .command:
        command = try parser.strings(depth: 3)
        guard command?.first?.isEmpty == false,
          command?.contains(where: ManifestDecoder.containsNUL) == false
        else { throw parser.declined }
      case .restart: restart = try parser.restart()
      case .healthCheck: healthCheck = try parser.healthCheck()
      }
    }
    guard let name, let type, command == nil || placement == .process,
      library != nil || (version == nil && sha256 == nil), library == nil || version != nil
    else { throw declined }
    let plugin = library.map { library in
      PluginReference(
        library: library.text, version: version ?? "", sha256: sha256,
        source: SourceLocation(
          file: file, keyPath: path + ".library", line: library.line, column: library.column))
    }
    return ModuleManifest(
      name: name, type: type, level: level, priority: priority, dependencies: dependencies,
      isAsync: isAsync, startTimeout: timeout, isEnabled: isEnabled, isOptional: isOptional,
      config: config, services: services, targets: targets, plugin: plugin,
      source: SourceLocation(file: file, keyPath: path, line: line, column: column),
      activation: activation, activationEvents: activationEvents, placement: placement,
      command: command, restart: restart, healthCheck: healthCheck)
  }

  private mutating func service(_ path: String) throws(ManifestProblem) -> ServiceManifest {
    let (line, column) = (self.line, self.column)
    var protocolName: String?
    var implementation: String?
    var name: String?
    var scope: Scope?
    var rank: Int?
    try object(depth: 4) { (parser, key) throws(ManifestProblem) in
      if Self.equals(key, "protocol"), protocolName == nil {
        protocolName = try parser.repeatedString()
      } else if Self.equals(key, "implementation"), implementation == nil {
        implementation = try parser.repeatedString()
      } else if Self.equals(key, "name"), name == nil {
        name = try parser.string()
      } else if Self.equals(key, "scope"), scope == nil {
        scope = try parser.enumValue() as Scope
      } else if Self.equals(key, "rank"), rank == nil {
        guard case .int(let value) = try parser.number() else { throw parser.declined }
        rank = value
      } else {
        throw parser.declined
      }
    }
    guard let protocolName, let implementation else { throw declined }
    return ServiceManifest(
      protocolName: protocolName, implementation: implementation, name: name,
      scope: scope ?? .singleton, rank: rank,
      source: SourceLocation(file: file, keyPath: path, line: line, column: column))
  }

  private enum TargetKey: String, CaseIterable { case name, type, actions }
  private enum ActionKey: String, CaseIterable {
    case name, remote, summary, returns, parameters, timeout
  }
  private enum ParameterKey: String, CaseIterable { case name, type, required, `default` }
  private enum RestartKey: String, CaseIterable { case policy, maxRestarts, backoff }
  private enum BackoffKey: String, CaseIterable { case initialSeconds, maxSeconds }
  private enum HealthCheckKey: String, CaseIterable { case intervalSeconds, timeoutSeconds }

  private mutating func target(_ path: String) throws(ManifestProblem) -> TargetManifest {
    let source = location(path)
    var (name, type, actions): (String?, String?, [ActionManifest]) = (nil, nil, [])
    try object(depth: 4) { (parser, key: TargetKey) throws(ManifestProblem) in
      switch key {
      case .name: name = try parser.identifier()
      case .type: type = try parser.repeatedString()
      case .actions:
        actions = try parser.list(depth: 5, path + ".actions") {
          (parser, path) throws(ManifestProblem) in
          try parser.action(path)
        }
      }
    }
    guard let name, let type else { throw declined }
    return TargetManifest(name: name, type: type, actions: actions, source: source)
  }

  private mutating func action(_ path: String) throws(ManifestProblem) -> ActionManifest {
    // The name stays empty until read: an identifier never is.
    var action = ActionManifest(name: "", source: location(path))
    try object(depth: 6) { (parser, key: ActionKey) throws(ManifestProblem) in
      switch key {
      case .name: action.name = try parser.identifier()
      case .remote: action.isRemote = try parser.bool()
      case .summary: action.summary = try parser.string()
      case .returns: action.returns = try parser.enumValue()
      case .parameters:
        try parser.array(depth: 7) { (parser, _) throws(ManifestProblem) in
          action.parameters.append(try parser.parameter())
        }
      case .timeout: action.timeout = try parser.seconds()
      }
    }
    guard !action.name.isEmpty else { throw declined }
    return action
  }

  private mutating func parameter() throws(ManifestProblem) -> ParameterManifest {
    var (name, kind): (String?, ParameterManifest.Kind?) = (nil, nil)
    var (isRequired, defaultValue): (Bool, JSONValue?) = (false, nil)
    try object(depth: 8) { (parser, key: ParameterKey) throws(ManifestProblem) in
      switch key {
      case .name: name = try parser.string()
      case .type: kind = try parser.enumValue()
      case .required: isRequired = try parser.bool()
      case .default: defaultValue = try parser.jsonValue(depth: 9)
      }
    }
    guard let name, !name.isEmpty, let kind else { throw declined }
    return ParameterManifest(
      name: name, kind: kind, isRequired: isRequired, defaultValue: defaultValue)
  }

  /// A module's `restart`, with the defaults and the backoff rule of
  /// ``ManifestDecoder/restartPolicy(_:)``.
  private mutating func restart() throws(ManifestProblem) -> RestartPolicy {
    var restart = RestartPolicy.never
    var policy: RestartPolicy.Policy?
    var backoff: (initial: Double?, most: Double?) = (nil, nil)
    try object(depth: 3) { (parser, key: RestartKey) throws(ManifestProblem) in
      switch key {
      case .policy: policy = try parser.enumValue()
      case .maxRestarts:
        guard case .int(let count) = try parser.number(), count >= 0 else {
          throw parser.declined
        }
        restart.maxRestarts = count
      case .backoff:
        try parser.object(depth: 4) { (parser, key: BackoffKey) throws(ManifestProblem) in
          switch key {
          case .initialSeconds: backoff.initial = try parser.seconds()
          case .maxSeconds: backoff.most = try parser.seconds()
          }
        }
      }
    }
    guard let policy else { throw declined }
    restart.policy = policy
    restart.initialBackoff = backoff.initial ?? restart.initialBackoff
    restart.maxBackoff = backoff.most ?? max(restart.maxBackoff, restart.initialBackoff)
    guard restart.maxBackoff >= restart.initialBackoff else { throw declined }
    return restart
  }

  private mutating func healthCheck() throws(ManifestProblem) -> HealthCheckManifest {
    var check = HealthCheckManifest()
    try object(depth: 3) { (parser, key: HealthCheckKey) throws(ManifestProblem) in
      switch key {
      case .intervalSeconds: check.interval = try parser.seconds()
      case .timeoutSeconds: check.timeout = try parser.seconds()
      }
    }
    return check
  }

  // MARK: Tokens

  /// Where the value at the index starts, as the tree records it.
  private func location(_ path: String) -> SourceLocation {
    SourceLocation(file: file, keyPath: path, line: line, column: column)
  }

  /// An object whose keys are cases of `Key`, each handed to `member` once; an unknown or
  /// repeated key is left to the tree.
  private mutating func object<Key: RawRepresentable<String> & CaseIterable>(
    depth: Int, _ member: (inout JSONParser, Key) throws(ManifestProblem) -> Void
  ) throws(ManifestProblem) where Key.AllCases == [Key] {
    var seen = 0
    try object(depth: depth) { (parser, raw) throws(ManifestProblem) in
      guard let index = Key.allCases.firstIndex(where: { $0.rawValue.utf8.elementsEqual(raw) }),
        seen & (1 << index) == 0
      else { throw parser.declined }
      seen |= 1 << index
      try member(&parser, Key.allCases[index])
    }
  }

  /// An array of objects, each read by `element` with its key path (`path[position]`).
  private mutating func list<Element>(
    depth: Int, _ path: String,
    _ element: (inout JSONParser, String) throws(ManifestProblem) -> Element
  ) throws(ManifestProblem) -> [Element] {
    var elements: [Element] = []
    try array(depth: depth) { (parser, position) throws(ManifestProblem) in
      elements.append(try element(&parser, ManifestDecoder.indexed(path, position)))
    }
    return elements
  }

  /// Counts one value against ``ManifestLimits/values``, as the tree does.
  private mutating func counted() throws(ManifestProblem) {
    values += 1
    guard values <= limits.values else { throw declined }
  }

  /// An object whose keys are plain (ASCII, no escapes), each handed to `member` with the
  /// index at its value; `depth` is the number of containers around it.
  private mutating func object(
    depth: Int,
    _ member: (inout JSONParser, UnsafeBufferPointer<UInt8>) throws(ManifestProblem)
      -> Void
  ) throws(ManifestProblem) {
    try elements(between: UInt8(ascii: "{"), and: UInt8(ascii: "}"), depth: depth) {
      (parser, _) throws(ManifestProblem) in
      try member(&parser, try parser.plainKey())
    }
  }

  /// An array, each element handed to `element` with its position.
  private mutating func array(
    depth: Int, _ element: (inout JSONParser, Int) throws(ManifestProblem) -> Void
  ) throws(ManifestProblem) {
    try elements(between: UInt8(ascii: "["), and: UInt8(ascii: "]"), depth: depth, element)
  }

  /// The comma-separated elements between `open` and `close`, each handed to `element` with its
  /// position; `depth` is the number of containers around them.
  private mutating func elements(
    between open: UInt8, and close: UInt8, depth: Int,
    _ element: (inout JSONParser, Int) throws(ManifestProblem) -> Void
  ) throws(ManifestProblem) {
    try counted()
    guard current == open, depth < limits.depth else { throw declined }
    index += 1
    skipWhitespace()
    if current == close {
      index += 1
      return
    }
    var position = 0
    while true {
      try element(&self, position)
      position += 1
      skipWhitespace()
      if current == UInt8(ascii: ",") {
        index += 1
        skipWhitespace()
      } else if current == close {
        index += 1
        return
      } else {
        throw declined
      }
    }
  }

  /// `"key" :` with a key of plain ASCII (anything else is left to the tree), leaving the index
  /// at the value.
  private mutating func plainKey() throws(ManifestProblem) -> UnsafeBufferPointer<UInt8> {
    guard current == UInt8(ascii: "\"") else { throw declined }
    let start = index + 1
    var end = start
    while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
      guard bytes[end] >= 0x20, bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\\") else {
        throw declined
      }
      end += 1
    }
    guard end < bytes.count else { throw declined }
    index = end + 1
    skipWhitespace()
    guard current == UInt8(ascii: ":") else { throw declined }
    index += 1
    skipWhitespace()
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }

  static func equals(_ key: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
    key.count == word.utf8CodeUnitCount
      && (0..<key.count).allSatisfy { key[$0] == word.utf8Start[$0] }
  }

  private mutating func string() throws(ManifestProblem) -> String {
    try counted()
    guard current == UInt8(ascii: "\"") else { throw declined }
    return try parseString()
  }

  /// A string that modules repeat (a type or protocol name): an earlier one with the same
  /// plain ASCII spelling when ``repeated`` has it, without making another.
  private mutating func repeatedString() throws(ManifestProblem) -> String {
    guard let repeated, current == UInt8(ascii: "\"") else { return try string() }
    var end = index + 1
    while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] >= 0x20,
      bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\\")
    {
      end += 1
    }
    if end < bytes.count, bytes[end] == UInt8(ascii: "\""),
      let earlier = repeated.string(UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end]))
    {
      try counted()
      index = end + 1
      return earlier
    }
    let text = try string()
    repeated.keep(text)
    return text
  }

  /// A name the tree's ``ManifestDecoder/isIdentifier(_:)`` accepts.
  private mutating func identifier() throws(ManifestProblem) -> String {
    let name = try string()
    guard ManifestDecoder.isIdentifier(name) else { throw declined }
    return name
  }

  /// A number of seconds ``ManifestDecoder/isSeconds(_:)`` accepts.
  private mutating func seconds() throws(ManifestProblem) -> Double {
    let value: Double
    switch try number() {
    case .int(let number): value = Double(number)
    case .double(let number): value = number
    default: throw declined
    }
    guard ManifestDecoder.isSeconds(value) else { throw declined }
    return value
  }

  private mutating func strings(depth: Int) throws(ManifestProblem) -> [String] {
    var strings: [String] = []
    try array(depth: depth) { (parser, _) throws(ManifestProblem) in
      strings.append(try parser.string())
    }
    return strings
  }

  private mutating func enumValue<Value: RawRepresentable<String>>() throws(ManifestProblem)
    -> Value
  {
    guard let value = Value(rawValue: try string()) else { throw declined }
    return value
  }

  private mutating func bool() throws(ManifestProblem) -> Bool {
    try counted()
    switch current {
    case UInt8(ascii: "t"):
      try parseLiteral("true")
      return true
    case UInt8(ascii: "f"):
      try parseLiteral("false")
      return false
    default: throw declined
    }
  }

  private mutating func number() throws(ManifestProblem) -> ManifestNode.Value {
    try counted()
    guard let byte = current,
      byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    else { throw declined }
    return try parseNumber()
  }

  /// Any value, as ``ManifestNode/jsonValue`` makes it from the tree; a repeated key (or keys
  /// equal after Unicode normalisation) is left to the tree, which reports it.
  private mutating func jsonValue(depth: Int) throws(ManifestProblem) -> JSONValue {
    guard let byte = current else { throw declined }
    switch byte {
    case UInt8(ascii: "{"):
      var members: [String: JSONValue] = [:]
      try counted()
      index += 1
      skipWhitespace()
      if current == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      guard depth < limits.depth, depth < 64 else { throw declined }
      while true {
        guard current == UInt8(ascii: "\"") else { throw declined }
        let key = try parseString()
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { throw declined }
        index += 1
        skipWhitespace()
        guard members.updateValue(try jsonValue(depth: depth + 1), forKey: key) == nil else {
          throw declined
        }
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","):
          index += 1
          skipWhitespace()
        case UInt8(ascii: "}"):
          index += 1
          return .object(members)
        default: throw declined
        }
      }
    case UInt8(ascii: "["):
      guard depth < 64 else { throw declined }
      var items: [JSONValue] = []
      try array(depth: depth) { (parser, _) throws(ManifestProblem) in
        items.append(try parser.jsonValue(depth: depth + 1))
      }
      return .array(items)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try bool())
    case UInt8(ascii: "n"):
      try counted()
      try parseLiteral("null")
      return .null
    default:
      switch try number() {
      case .int(let value): return .int(value)
      case .double(let value): return .double(value)
      default: throw declined
      }
    }
  }
}
