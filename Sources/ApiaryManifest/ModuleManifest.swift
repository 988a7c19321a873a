import ApiarySupport

/// One module as its manifest declares it. The manifest is the single source of truth for a
/// module's level, priority, dependencies and configuration.
///
/// A module manifest file holds a list of them under `modules`, with the file's
/// `schemaVersion` (required, must be `1`). Each module's keys:
///
/// | key | type | default |
/// |---|---|---|
/// | `name` | a letter, then letters, digits, `_`, `-`; unique in the application | required |
/// | `type` | the ``Module`` class, `ModuleName.TypeName` | required |
/// | `level` | `basic` or `normal` | `normal` |
/// | `priority` | integer, higher starts earlier | `0` |
/// | `dependencies` | array of module names | `[]` |
/// | `async` | boolean | `false` |
/// | `timeout` | number of seconds, greater than 0 and at most 1000000 | `10` |
/// | `enabled` | boolean | `true` |
/// | `optional` | boolean | `false` |
/// | `config` | object, free-form | `{}` |
/// | `services` | array of ``ServiceManifest`` objects | `[]` |
/// | `targets` | array of ``TargetManifest`` objects | `[]` |
/// | `library`, `version`, `sha256` | the plugin library the type lives in (``PluginReference``) | none |
/// | `activation` | `eager`, `lazy` or `background` (``Activation``) | `eager` |
/// | `activationEvents` | array of custom event names that wake a lazy module | `[]` |
/// | `placement` | `host` (in the host's process) or `process` (a child process of its own) | `host` |
/// | `command` | for `process`: the program and arguments to start instead of `apiary child` | none |
/// | `restart` | a child process's ``RestartPolicy`` | `never` |
/// | `healthCheck` | a child process's ping, ``HealthCheckManifest`` | none |
///
/// Any other key is reported as a problem, with the closest known key.
///
/// ```json
/// {
///   "schemaVersion": 1,
///   "modules": [
///     {
///       "name": "notes",
///       "type": "NotesPlugin.NotesModule",
///       "level": "normal",
///       "priority": 10,
///       "dependencies": ["store", "logging"],
///       "async": false,
///       "timeout": 5,
///       "enabled": true,
///       "optional": false,
///       "config": { "maxTitleLength": 120 },
///       "services": [],
///       "targets": []
///     }
///   ]
/// }
/// ```
package struct ModuleManifest: Sendable, Hashable {
  /// The fields, shared by every copy of this manifest until one of them changes: a manifest
  /// is copied into the boot plan, the validator's lists and the kernel's tables, and a copy
  /// costs one reference count instead of one per field.
  private var storage: Storage

  /// Unique name of the module within the application.
  public var name: String {
    get { storage.fields.name }
    set { update { $0.name = newValue } }
  }
  /// The Swift type implementing ``Module``, written `ModuleName.TypeName`.
  public var type: String {
    get { storage.fields.type }
    set { update { $0.type = newValue } }
  }
  public var level: Level {
    get { storage.fields.level }
    set { update { $0.level = newValue } }
  }
  /// Higher starts earlier among modules of the same level whose dependencies allow it.
  public var priority: Int {
    get { storage.fields.priority }
    set { update { $0.priority = newValue } }
  }
  /// Names of modules that must start before this one.
  public var dependencies: [String] {
    get { storage.fields.dependencies }
    set { update { $0.dependencies = newValue } }
  }
  /// Start concurrently with other async modules as soon as dependencies have started.
  public var isAsync: Bool {
    get { storage.fields.isAsync }
    set { update { $0.isAsync = newValue } }
  }
  /// Seconds each of the module's hooks may take before it is failed, and each run of one of
  /// its event handlers before it is abandoned (the manifest's `timeout`).
  public var startTimeout: Double {
    get { storage.fields.startTimeout }
    set { update { $0.startTimeout = newValue } }
  }
  /// A disabled module is not loaded at all.
  public var isEnabled: Bool {
    get { storage.fields.isEnabled }
    set { update { $0.isEnabled = newValue } }
  }
  /// An optional module that fails is marked failed and the application goes on without it.
  public var isOptional: Bool {
    get { storage.fields.isOptional }
    set { update { $0.isOptional = newValue } }
  }
  /// Free-form configuration, read through ``ModuleContext/config``.
  public var config: [String: JSONValue] {
    get { storage.fields.config }
    set { update { $0.config = newValue } }
  }
  /// Services this module binds in the container.
  public var services: [ServiceManifest] {
    get { storage.fields.services }
    set { update { $0.services = newValue } }
  }
  /// Targets this module exposes to the mediator.
  public var targets: [TargetManifest] {
    get { storage.fields.targets }
    set { update { $0.targets = newValue } }
  }
  /// The plugin library this module's type is loaded from; nil when the host has the type.
  public var plugin: PluginReference? {
    get { storage.fields.plugin }
    set { update { $0.plugin = newValue } }
  }
  /// Whether ``plugin`` is set, asked without copying the reference: boot asks it of every
  /// module, and a copy of even an empty one reads its whole width.
  package var namesPlugin: Bool { storage.namesPlugin }
  /// Whether the manifest names a plugin library whose reference has problems (reported when
  /// it was decoded), so ``plugin`` is nil: the module's types are in a library that is not
  /// loaded, and are not reported missing as well.
  package var namesBrokenPlugin: Bool {
    get { storage.fields.namesBrokenPlugin }
    set { update { $0.namesBrokenPlugin = newValue } }
  }
  /// The index in the manifest's `dependencies` of each of ``dependencies``, when entries that
  /// are not strings were left out (each reported); nil when none were.
  package var dependencyIndices: [Int]? {
    get { storage.fields.dependencyIndices }
    set { update { $0.dependencyIndices = newValue } }
  }
  /// The file and key path this module was declared at.
  public var source: SourceLocation? {
    get { storage.fields.source }
    set { update { $0.source = newValue } }
  }
  /// When the module is set up and started: at boot, or on first use.
  public var activation: Activation {
    get { storage.fields.activation }
    set { update { $0.activation = newValue } }
  }
  /// Custom events whose first post wakes a lazy module (the event is then delivered to it).
  public var activationEvents: [String] {
    get { storage.fields.activationEvents }
    set { update { $0.activationEvents = newValue } }
  }
  /// Where the module runs: in the host's process, or in a child process behind the wire
  /// protocol (`docs/wire-protocol.md`).
  package var placement: Placement {
    get { storage.fields.placement }
    set { update { $0.placement = newValue } }
  }
  /// For a process-placed module not written in Swift: the program and its arguments, started
  /// in place of `apiary child`. Elements starting with `./` or `../` are relative to the
  /// manifest file's directory.
  package var command: [String]? {
    get { storage.fields.command }
    set { update { $0.command = newValue } }
  }
  /// What the host does when the module's child process ends on its own.
  package var restart: RestartPolicy {
    get { storage.fields.restart }
    set { update { $0.restart = newValue } }
  }
  /// The ping that finds a hung child process; nil for none.
  package var healthCheck: HealthCheckManifest? {
    get { storage.fields.healthCheck }
    set { update { $0.healthCheck = newValue } }
  }

  /// Seconds a module's `start` may take when its manifest does not say.
  public static let defaultStartTimeout: Double = 10

  public init(
    name: String,
    type: String,
    level: Level = .normal,
    priority: Int = 0,
    dependencies: [String] = [],
    isAsync: Bool = false,
    startTimeout: Double = ModuleManifest.defaultStartTimeout,
    isEnabled: Bool = true,
    isOptional: Bool = false,
    config: [String: JSONValue] = [:],
    services: [ServiceManifest] = [],
    targets: [TargetManifest] = [],
    plugin: PluginReference? = nil,
    source: SourceLocation? = nil,
    activation: Activation = .eager,
    activationEvents: [String] = [],
    placement: Placement = .host,
    command: [String]? = nil,
    restart: RestartPolicy = .never,
    healthCheck: HealthCheckManifest? = nil
  ) {
    self.storage = Storage(
      Fields(
        name: name, type: type, dependencies: dependencies, services: services,
        targets: targets, activationEvents: activationEvents, priority: priority, level: level,
        activation: activation, placement: placement, isEnabled: isEnabled,
        isOptional: isOptional, isAsync: isAsync, startTimeout: startTimeout, config: config,
        plugin: plugin, source: source, command: command, restart: restart,
        healthCheck: healthCheck))
  }

  /// Every field of a manifest, stored once in a ``Storage``. The fields boot reads for every
  /// module come first, so its passes over thousands of manifests touch one or two cache lines
  /// of each instead of the whole object; those read for a module that runs or has a problem
  /// follow.
  private struct Fields: Sendable, Hashable {
    var name: String
    var type: String
    var dependencies: [String]
    var services: [ServiceManifest]
    var targets: [TargetManifest]
    var activationEvents: [String]
    var priority: Int
    var level: Level
    var activation: Activation
    var placement: Placement
    var isEnabled: Bool
    var isOptional: Bool
    var isAsync: Bool
    var startTimeout: Double
    var config: [String: JSONValue]
    var plugin: PluginReference?
    var source: SourceLocation?
    var command: [String]?
    var restart: RestartPolicy
    var healthCheck: HealthCheckManifest?
    var dependencyIndices: [Int]?
    var namesBrokenPlugin = false
  }

  /// Immutable, so reading a field needs no exclusivity check; a change makes a new one.
  private final class Storage: Sendable {
    /// Whether `fields.plugin` is set, kept before the fields, next to the name.
    let namesPlugin: Bool
    let fields: Fields
    init(_ fields: Fields) {
      // The library alone is read: a test of the whole optional copies it.
      namesPlugin = fields.plugin?.library != nil
      self.fields = fields
    }
  }

  private mutating func update(_ change: (inout Fields) -> Void) {
    var fields = storage.fields
    change(&fields)
    storage = Storage(fields)
  }

  package static func == (lhs: ModuleManifest, rhs: ModuleManifest) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
  }

  package func hash(into hasher: inout Hasher) {
    storage.fields.hash(into: &hasher)
  }

  /// Where a module runs.
  package enum Placement: String, Sendable, Hashable, CaseIterable {
    /// In the host's process (the default).
    case host
    /// In a child process of its own, which the host starts, talks to over the wire protocol
    /// and outlives.
    case process
  }

  /// Whether the module waits for a trigger instead of starting at boot.
  public var isLazy: Bool { activation != .eager }

  /// When a module is set up and started (VS Code's activation events, OSGi's delayed
  /// components).
  ///
  /// A `lazy` module is not created at boot. It wakes — its dependencies first, then its
  /// `setUp`, `start` and `ready` — on its first trigger: the first resolve of a service its
  /// manifest declares, the first call (`perform` or a URL) to a target it declares, or the
  /// first post of one of its `activationEvents`. A `background` module wakes the same way, or
  /// else in the background once the application is ready, after every other module, one at a
  /// time.
  ///
  /// ```json
  /// { "name": "search", "type": "SearchPlugin.SearchModule", "activation": "lazy",
  ///   "activationEvents": ["note.saved"] }
  /// ```
  public enum Activation: String, Sendable, Hashable, CaseIterable {
    /// Set up and started at boot (the default).
    case eager
    /// Set up and started on its first trigger.
    case lazy
    /// Like `lazy`, and started in the background once the application is ready.
    case background
  }

  /// BeeHive's module levels: basic modules start before normal ones.
  public enum Level: String, Sendable, Hashable, CaseIterable, Comparable {
    case basic, normal

    public static func < (lhs: Level, rhs: Level) -> Bool {
      lhs == .basic && rhs == .normal
    }
  }
}
