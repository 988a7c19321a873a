/// Resolves services; factories receive one, and ``Container`` forwards to its own.
///
/// ```swift
/// try container.register(NotesService.self) { r in
///   NotesService(store: try r.resolve(), log: try r.resolve(Logger.self, name: "notes"))
/// }
/// let greeting = try container.resolve(Greeting.self, arguments: "Ada", 3)
/// ```
public struct Resolver: Sendable {
  @usableFromInline let registry: Registry

  @usableFromInline
  init(registry: Registry) {
    self.registry = registry
  }

  /// The instance bound to `type` (and `name`); throws ``ContainerError/notBound(_:nearby:)``
  /// when nothing is bound.
  @inlinable
  public func resolve<T>(_ type: T.Type = T.self, name: String? = nil) throws(ContainerError)
    -> T
  {
    try registry.resolve(T.self, name: name, arguments: ())
  }

  /// The instance of a binding registered with runtime arguments of these types.
  @inlinable
  public func resolve<T, each A>(
    _ type: T.Type = T.self, name: String? = nil, arguments: repeat each A
  ) throws(ContainerError) -> T {
    try registry.resolve(T.self, name: name, arguments: (repeat each arguments))
  }

  /// The instance, or nil when nothing is bound (errors while creating it still throw).
  @inlinable
  public func optional<T>(_ type: T.Type = T.self, name: String? = nil) throws(ContainerError)
    -> T?
  {
    try registry.resolveIfBound(T.self, name: name, arguments: ())
  }

  /// Whether `type` (and `name`) is bound here or in a parent.
  public func isBound<T>(_ type: T.Type, name: String? = nil) -> Bool {
    registry.contains(BindingKey(T.self, name: name, arguments: Void.self))
  }

  /// Defers resolving until first use, then keeps the instance.
  public func lazy<T>(_ type: T.Type = T.self, name: String? = nil) -> Lazy<T> {
    Lazy(resolver: self, name: name)
  }

  /// Resolves anew on every `get()`, honouring the binding's scope.
  public func provider<T>(_ type: T.Type = T.self, name: String? = nil) -> Provider<T> {
    Provider(resolver: self, name: name)
  }

  /// A new instance of an ``Injectable`` class that need not be registered (objection builds
  /// unregistered classes the same way), with its ``Injected`` properties filled.
  ///
  /// ```swift
  /// let controller = try resolver.make(NotesController.self)
  /// ```
  public func make<T: Injectable>(_ type: T.Type) throws(ContainerError) -> T {
    let instance: T
    do { instance = try T(resolver: self) } catch {
      throw (error as? ContainerError) ?? .factoryFailed(ServiceKey(T.self), underlying: error)
    }
    try inject(into: instance)
    return instance
  }

  /// Fills `object`'s ``Injected`` properties (its superclasses' too), then calls its
  /// ``InjectionAware/didInject(_:)`` hook.
  public func inject(into object: AnyObject) throws(ContainerError) {
    var mirror: Mirror? = Mirror(reflecting: object)
    while let current = mirror {
      for child in current.children {
        if let property = child.value as? any InjectedProperty {
          try property.inject(from: self)
        }
      }
      mirror = current.superclassMirror
    }
    if let aware = object as? any InjectionAware {
      do { try aware.didInject(self) } catch {
        throw (error as? ContainerError)
          ?? .factoryFailed(ServiceKey(type(of: object)), underlying: error)
      }
    }
  }
}
