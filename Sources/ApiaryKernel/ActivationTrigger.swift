import ApiaryManifest

/// What woke a lazy module: the first use of something its manifest declares, a dependent
/// waking, the background start after `ready`, or an explicit ``Kernel/activate(_:)``.
///
/// ```swift
/// for wake in kernel.profiler.activations { print(wake.module, wake.trigger) }
/// // search  call to target 'search'
/// ```
public enum ActivationTrigger: Sendable, Hashable, CustomStringConvertible {
  /// The first resolve of a declared service, by its protocol name.
  case service(String)
  /// The first call (`perform` or a URL) to a declared target.
  case target(String)
  /// The first post of one of the module's `activationEvents`.
  case event(String)
  /// A lazy module that depends on it woke.
  case dependency(of: String)
  /// The background start of an `"activation": "background"` module once the application is
  /// ready.
  case background
  /// ``Kernel/activate(_:)``.
  case request

  public var description: String {
    switch self {
    case .service(let name): "resolve of \(name)"
    case .target(let name): "call to target '\(name)'"
    case .event(let name): "event '\(name)'"
    case .dependency(let module): "dependency of '\(module)'"
    case .background: "background start"
    case .request: "request"
    }
  }
}

extension BootPlan {
  /// What would wake `module`, from its manifest alone, as `apiary plan` lists it: its declared
  /// services and targets, its activation events, and for a `background` module the background
  /// start. Empty for an eager module.
  ///
  /// ```swift
  /// plan.triggers(of: search).map(\.description)  // ["call to target 'search'", "event 'note.saved'"]
  /// ```
  package func triggers(of module: ModuleManifest) -> [ActivationTrigger] {
    guard module.isLazy else { return [] }
    var triggers = module.services.map { ActivationTrigger.service($0.protocolName) }
    triggers += module.targets.map { .target($0.name) }
    triggers += module.activationEvents.map { .event($0) }
    if module.activation == .background { triggers.append(.background) }
    return triggers
  }
}
