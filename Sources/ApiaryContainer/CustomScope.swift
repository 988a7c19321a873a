/// A lifetime the built-in ``Scope`` cases do not cover (per session, per request, time to
/// live): the scope decides whether to hand out a kept instance or make a new one. Register
/// with ``Container/register(_:name:in:override:factory:)``.
///
/// ```swift
/// final class SessionScope: CustomScope {
///   private let lock = NSLock()
///   nonisolated(unsafe) private var instances: [ServiceKey: Any] = [:]  // guarded by `lock`
///
///   func instance<T>(for key: ServiceKey, make: () throws -> T) throws -> T {
///     if let kept = lock.withLock({ instances[key] }) as? T { return kept }
///     let made = try make()
///     lock.withLock { instances[key] = made }
///     return made
///   }
///   func endSession() { lock.withLock { instances.removeAll() } }
/// }
/// try container.register(Cart.self, in: session) { _ in Cart() }
/// ```
///
/// `make` runs the binding's factory; the container holds no lock while the scope runs.
public protocol CustomScope: AnyObject, Sendable {
  func instance<T>(for key: ServiceKey, make: () throws -> T) throws -> T
}

extension Container {
  /// Binds `type` to a factory whose instances live as long as `scope` decides.
  @discardableResult
  public func register<T: Sendable>(
    _ type: T.Type, name: String? = nil, in scope: some CustomScope, override: Bool = false,
    factory: @escaping @Sendable (Resolver) throws -> T
  ) throws(ContainerError) -> BindingHandle<T> {
    let key = ServiceKey(T.self, name: name)
    return try add(
      key, scope: .transient, eager: false,
      kind: .customScope(String(describing: Swift.type(of: scope))), override: override
    ) { (r, _: Void) in try scope.instance(for: key) { try factory(r) } }
  }
}
