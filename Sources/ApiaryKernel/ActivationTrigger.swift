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
