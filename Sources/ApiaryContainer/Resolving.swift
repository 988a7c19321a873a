/// The calls that resolve services, answered alike by a ``Container`` and by the ``Resolver``
/// its factories receive.
///
/// ```swift
/// try container.register(NotesService.self) { r in NotesService(store: try r.resolve()) }
/// let notes = try container.resolve(NotesService.self)
/// ```
public protocol Resolving: Sendable {
  /// The resolver these calls go to.
  var resolver: Resolver { get }
}

extension Resolving {
  /// The instance bound to `type` (and `name`); throws ``ErrorCode/notBound``
  /// when nothing is bound.
  ///
  /// ```swift
  /// let store: any NoteStore = try container.resolve()
  /// ```
  @inlinable
  public func resolve<T>(_ type: T.Type = T.self, name: String? = nil) throws(ContainerError)
    -> T
  {
    try resolver.registry.resolve(T.self, name: name, arguments: ())
  }

  /// The instance of a binding registered with runtime arguments of these types.
  @inlinable
  public func resolve<T, each A>(
    _ type: T.Type = T.self, name: String? = nil, arguments: repeat each A
  ) throws(ContainerError) -> T {
    try resolver.registry.resolve(T.self, name: name, arguments: (repeat each arguments))
  }

  /// The instance, or nil when nothing is bound (errors while creating it still throw).
  @inlinable
  public func optional<T>(_ type: T.Type = T.self, name: String? = nil) throws(ContainerError)
    -> T?
  {
    try resolver.registry.resolveIfBound(T.self, name: name, arguments: ())
  }

  /// The instance of a binding with runtime arguments, or nil when nothing is bound.
  public func optional<T, each A>(
    _ type: T.Type = T.self, name: String? = nil, arguments: repeat each A
  ) throws(ContainerError) -> T? {
    try resolver.registry.resolveIfBound(T.self, name: name, arguments: (repeat each arguments))
  }

  /// Every provider of `type` (and `name`), highest rank first, then earliest registration;
  /// the first is what `resolve` returns. Empty when nothing is bound.
  ///
  /// ```swift
  /// for exporter in try container.resolveAll((any Exporter).self) { try exporter.export() }
  /// ```
  public func resolveAll<T>(_ type: T.Type = T.self, name: String? = nil) throws(ContainerError)
    -> [T]
  {
    let bindings = resolver.registry.providers(BindingKey(T.self, name: name, arguments: Void.self))
    var instances: [T] = []
    instances.reserveCapacity(bindings.count)
    for binding in bindings {
      // Stored under a key made of `T.self` and `Void`, so it is a `Binding<T, Void>`.
      let typed = unsafeDowncast(binding, to: Binding<T, Void>.self)
      typed.family.lock.lock()
      let built = typed.existing()
      typed.family.lock.unlock()
      if let built {
        instances.append(built)
      } else {
        instances.append(try typed.produce((), requester: resolver.registry))
      }
    }
    return instances
  }

  /// Whether `type` (and `name`) is bound here or in a parent.
  public func isBound<T>(_ type: T.Type, name: String? = nil) -> Bool {
    resolver.registry.contains(BindingKey(T.self, name: name, arguments: Void.self))
  }

  /// Defers resolving until first use, then keeps the instance. Made while a factory runs, it
  /// resolves in that factory's object graph, so `.graph` bindings are the graph's instances.
  public func lazy<T>(_ type: T.Type = T.self, name: String? = nil) -> Lazy<T> {
    Lazy(graph: ResolutionState.current.currentGraph()) { [resolver] () throws(ContainerError) in
      try resolver.resolve(T.self, name: name)
    }
  }

  /// A ``Lazy`` for a binding with runtime arguments, given now and used on first `get()`.
  public func lazy<T, each A: Sendable>(
    _ type: T.Type = T.self, name: String? = nil, arguments: repeat each A
  ) -> Lazy<T> {
    let arguments = Arguments((repeat each arguments))
    return Lazy(graph: ResolutionState.current.currentGraph()) {
      [resolver] () throws(ContainerError) in
      try resolver.registry.resolve(T.self, name: name, arguments: arguments.values)
    }
  }

  /// Resolves anew on every `get()`, honouring the binding's scope.
  public func provider<T>(_ type: T.Type = T.self, name: String? = nil) -> Provider<T> {
    Provider { [resolver] () throws(ContainerError) in try resolver.resolve(T.self, name: name) }
  }

  /// A ``Provider`` for a binding with runtime arguments, given now and used on every `get()`.
  public func provider<T, each A: Sendable>(
    _ type: T.Type = T.self, name: String? = nil, arguments: repeat each A
  ) -> Provider<T> {
    let arguments = Arguments((repeat each arguments))
    return Provider { [resolver] () throws(ContainerError) in
      try resolver.registry.resolve(T.self, name: name, arguments: arguments.values)
    }
  }

  /// A new instance of an ``Injectable`` class that need not be registered (objection builds
  /// unregistered classes the same way), with its ``Injected`` properties filled.
  ///
  /// ```swift
  /// let controller = try resolver.make(NotesController.self)
  /// ```
  public func make<T: Injectable>(_ type: T.Type) throws(ContainerError) -> T {
    let instance: T
    do { instance = try T(resolver: resolver) } catch {
      throw (error as? ContainerError) ?? .factoryFailed(ServiceKey(T.self), underlying: error)
    }
    try inject(into: instance)
    return instance
  }

  /// Fills `object`'s ``Injected`` properties (its superclasses' too), then calls its
  /// ``InjectionAware/didInject(_:)`` hook.
  public func inject(into object: AnyObject) throws(ContainerError) {
    var failure: ContainerError?
    forEachInjectedProperty(of: object) { name, property in
      do throws(ContainerError) { try property.inject(from: resolver) } catch {
        failure = error.neededBy(property: name, of: type(of: object))
      }
      return failure == nil
    }
    if let failure { throw failure }
    if let aware = object as? any InjectionAware {
      do { try aware.didInject(resolver) } catch {
        throw (error as? ContainerError)
          ?? .factoryFailed(ServiceKey(type(of: object)), underlying: error)
      }
    }
  }
}

/// Runtime arguments kept for a later resolve (``Lazy``, ``Provider``).
///
/// `@unchecked Sendable`: immutable, and built only from `Sendable` arguments (the initialisers
/// that create it require `each A: Sendable`); a tuple of them cannot state that conformance.
private struct Arguments<Values>: @unchecked Sendable {
  let values: Values
  init(_ values: Values) { self.values = values }
}
