import ApiarySupport

/// Services and dependency injection: bindings keyed by a type (usually a protocol) and an
/// optional name, with scopes, runtime arguments, child and derived containers, and ownership
/// by module so unloading a module removes what it bound.
///
/// ```swift
/// let container = Container()
/// try container.register((any Clock).self, scope: .singleton) { _ in SystemClock() }
/// try container.register(Scheduler.self) { r in Scheduler(clock: try r.resolve()) }
/// let scheduler = try container.resolve(Scheduler.self)
/// ```
///
/// Every method is safe to call from any thread or task, including from inside a factory while
/// other threads register. A resolve that finds a built instance takes one short lock; building
/// a singleton or weak instance holds a family-wide, recursive construction lock so it happens
/// once, so a singleton's factory must not block waiting for another thread that is itself
/// building a singleton.
public final class Container: Resolving {
  @usableFromInline let registry: Registry
  /// Who owns registrations made through this view (nil: the application).
  let owner: String?
  /// Whether registrations through this view replace existing keys (derived containers).
  let overrides: Bool

  public init() {
    self.registry = Registry(family: Family(), parent: nil)
    self.owner = nil
    self.overrides = false
  }

  init(registry: Registry, owner: String?, overrides: Bool = false) {
    self.registry = registry
    self.owner = owner
    self.overrides = overrides
  }

  /// The resolver factories receive, resolving from this container.
  @inlinable
  public var resolver: Resolver { Resolver(registry: registry) }

  // MARK: Views, children and derived containers

  /// A view sharing this container's bindings whose registrations are owned by `owner`.
  ///
  /// ```swift
  /// let notes = root.owned(by: "notes")
  /// try notes.register(NotesService.self) { _ in NotesService() }
  /// // unloading the module "notes" removes the binding again
  /// ```
  package func owned(by owner: String) -> Container {
    Container(registry: registry, owner: owner)
  }

  /// A child container: it sees this container's bindings (and shares its singletons), while
  /// its own bindings, which may shadow the parent's, stay invisible to the parent.
  ///
  /// ```swift
  /// let test = container.child()
  /// try test.register((any Clock).self) { _ in FixedClock() }  // only for `test`
  /// ```
  public func child() -> Container {
    Container(
      registry: Registry(family: registry.family, parent: registry),
      owner: owner)
  }

  /// A new container with this one's bindings, without `owners`' bindings, plus whatever
  /// `configure` registers (later wins: it may replace keys without `override:`). Singletons
  /// already built are shared with this container; nothing is configured twice.
  ///
  /// ```swift
  /// let offline = try container.derived(removing: ["sync"]) { c in
  ///   try c.register((any Network).self) { _ in OfflineNetwork() }
  /// }
  /// ```
  package func derived(
    removing owners: Set<String> = [], _ configure: (Container) throws -> Void
  ) rethrows -> Container {
    let derived = registry.derived(removing: owners)
    try configure(Container(registry: derived, owner: owner, overrides: true))
    return Container(registry: derived, owner: owner)
  }

  /// A new container with this one's bindings minus `owners`' bindings, sharing built
  /// singletons.
  package func derived(removing owners: Set<String>) -> Container {
    Container(registry: registry.derived(removing: owners), owner: owner)
  }

  // MARK: Registering

  /// Binds `type` (and `name`) to a factory that receives the resolver, in `scope`. `type` is
  /// `Sendable`, since a singleton or weak instance reaches every thread that resolves it; a
  /// type that is not registers without `scope:`, as `.transient`.
  ///
  /// ```swift
  /// try container.register(NotesService.self, scope: .singleton) { r in
  ///   NotesService(store: try r.resolve(), log: try r.resolve())
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - eager: build the singleton when the application boots instead of on first use;
  ///     only singletons may be eager.
  ///   - override: replace an existing binding of the same key in this container instead of
  ///     failing with ``ErrorCode/duplicate``. The replaced
  ///     binding comes back when the overriding owner is removed.
  ///   - rank: register one of several providers of the key: ranked bindings of one key live
  ///     side by side; `resolve` picks the highest rank, then the earliest registration, and
  ///     ``Resolving/resolveAll(_:name:)`` returns them all in that order. An unranked binding stays the
  ///     only one of its key.
  @discardableResult
  public func register<T: Sendable>(
    _ type: T.Type, name: String? = nil, scope: Scope = .transient, eager: Bool = false,
    override: Bool = false, rank: Int? = nil, factory: @escaping @Sendable (Resolver) throws -> T
  ) throws(ContainerError) -> BindingHandle<T> {
    try add(
      ServiceKey(T.self, name: name), scope: scope, eager: eager, kind: .factory,
      override: override, rank: rank
    ) { (r, _: Void) in try factory(r) }
  }

  /// Binds `type` to a factory that makes a new instance for every resolve (`.transient`).
  /// `type` need not be `Sendable`: no instance is shared. A shared `scope:` needs a
  /// `Sendable` type, so the compiler refuses a singleton that threads could race on:
  ///
  /// ```swift
  /// try container.register(Draft.self) { _ in Draft() }  // a non-Sendable class
  /// try container.register(Draft.self, scope: .singleton) { _ in Draft() }  // does not compile
  /// ```
  @discardableResult
  public func register<T>(
    _ type: T.Type, name: String? = nil, override: Bool = false, rank: Int? = nil,
    factory: @escaping @Sendable (Resolver) throws -> T
  ) throws(ContainerError) -> BindingHandle<T> {
    try add(
      ServiceKey(T.self, name: name), scope: .transient, eager: false, kind: .factory,
      override: override, rank: rank
    ) { (r, _: Void) in try factory(r) }
  }

  /// Binds `type` to a factory taking runtime arguments, supplied by
  /// `resolve(_:name:arguments:)` with the same types in the same order.
  ///
  /// ```swift
  /// try container.register(Greeting.self) { (r, who: String, times: Int) in
  ///   Greeting(who: who, times: times)
  /// }
  /// let greeting = try container.resolve(Greeting.self, arguments: "Ada", 3)
  /// ```
  @discardableResult
  public func register<T: Sendable, each A>(
    _ type: T.Type, name: String? = nil, scope: Scope = .transient, override: Bool = false,
    rank: Int? = nil, factory: @escaping @Sendable (Resolver, repeat each A) throws -> T
  ) throws(ContainerError) -> BindingHandle<T> {
    try add(
      ServiceKey(T.self, name: name, arguments: (repeat each A).self), scope: scope,
      eager: false, kind: .factory, override: override, rank: rank
    ) { (r, arguments: (repeat each A)) in try factory(r, repeat each arguments) }
  }

  /// Binds `type`, which need not be `Sendable`, to a factory taking runtime arguments that
  /// makes a new instance for every resolve (`.transient`).
  @discardableResult
  public func register<T, each A>(
    _ type: T.Type, name: String? = nil, override: Bool = false, rank: Int? = nil,
    factory: @escaping @Sendable (Resolver, repeat each A) throws -> T
  ) throws(ContainerError) -> BindingHandle<T> {
    try add(
      ServiceKey(T.self, name: name, arguments: (repeat each A).self), scope: .transient,
      eager: false, kind: .factory, override: override, rank: rank
    ) { (r, arguments: (repeat each A)) in try factory(r, repeat each arguments) }
  }

  /// Binds `type` to an existing instance (a singleton that is already built).
  ///
  /// ```swift
  /// try container.register((any Clock).self, instance: FixedClock(now: 0))
  /// ```
  @discardableResult
  public func register<T: Sendable>(
    _ type: T.Type, name: String? = nil, instance: T, override: Bool = false, rank: Int? = nil
  ) throws(ContainerError) -> BindingHandle<T> {
    try add(
      ServiceKey(T.self, name: name), scope: .singleton, eager: false, kind: .instance,
      override: override, rank: rank, instance: instance
    ) { (_, _: Void) throws -> T in
      // Never called: the binding starts built and derived containers share it.
      throw ContainerError.notBound(ServiceKey(T.self, name: name), nearby: NearbyBindings())
    }
  }

  /// Binds `type` to a ``ServiceProvider`` object.
  @discardableResult
  public func register<P: ServiceProvider>(
    _ type: P.Service.Type, name: String? = nil, scope: Scope = .transient,
    eager: Bool = false, override: Bool = false, rank: Int? = nil, provider: P
  ) throws(ContainerError) -> BindingHandle<P.Service> where P.Service: Sendable {
    try add(
      ServiceKey(P.Service.self, name: name), scope: scope, eager: eager, kind: .provider,
      override: override, rank: rank
    ) { (r, _: Void) in try provider.provide(r) }
  }

  package func add<T, Args>(
    _ key: ServiceKey, scope: Scope, eager: Bool, kind: BindingInfo.Kind, override: Bool,
    rank: Int? = nil, source: SourceLocation? = nil, instance: T? = nil,
    make: @escaping @Sendable (Resolver, Args) throws -> T
  ) throws(ContainerError) -> BindingHandle<T> {
    if eager, scope != .singleton { throw .eagerNotSingleton(key, scope: scope) }
    let binding = Binding<T, Args>(
      key, scope: scope, owner: owner, kind: kind, isEager: eager, source: source,
      order: registry.family.nextOrder(), rank: rank, family: registry.family,
      instance: instance, make: make)
    try add(binding, override: override)
    return BindingHandle(container: self, name: key.name, arguments: Args.self) {
      binding.addCompletion($0)
    }
  }

  func add(_ binding: AnyBinding, override: Bool) throws(ContainerError) {
    try registry.insert(binding, override: override || overrides)
  }

  // MARK: Boot and unload

  /// Makes room for `count` more keys, so binding many at once (a boot's placeholders) does
  /// not grow the table step by step, rehashing every key each time.
  package func reserveCapacity(_ count: Int) {
    registry.reserveCapacity(count)
  }

  /// Builds every eager singleton not yet built, in registration order; a singleton's
  /// dependencies are built first by resolving them.
  package func buildEagerSingletons() throws(ContainerError) {
    for binding in registry.eagerBindings() {
      try binding.buildEagerly(in: registry)
    }
  }

  /// Removes every binding owned by `owner` and releases its instances (those nobody else
  /// holds). Instances already resolved by others stay valid.
  package func removeAll(ownedBy owner: String) {
    registry.removeAll(ownedBy: [owner])
  }

  /// Removes the bindings of several owners in one pass (the kernel's shutdown).
  package func removeAll(ownedBy owners: Set<String>) {
    registry.removeAll(ownedBy: owners)
  }

  /// Drops the built singleton and weak instances of this container's bindings, without
  /// re-registering anything (log-out, a new session, test isolation): the next resolve builds
  /// them anew. Instances bound with `instance:` stay, and holders keep what they have.
  ///
  /// ```swift
  /// container.resetSingletons()                              // all of them
  /// container.resetSingletons(of: (any Session).self)        // one key
  /// ```
  package func resetSingletons() {
    registry.resetInstances(of: nil)
  }

  /// Drops the built instances of the bindings of `type` (and `name`) in this container.
  package func resetSingletons<T>(of type: T.Type, name: String? = nil) {
    registry.resetInstances(of: BindingKey(T.self, name: name, arguments: Void.self))
  }

  // MARK: Observing

  /// Calls `observer` with every change to the bindings of `type` (and `name`) in this
  /// container and its owned views: a provider added, removed, overridden or brought back. The
  /// call happens on the registering thread after the registration is done, never while a
  /// container lock is held; changes made on several threads at once may arrive in any order.
  /// An error the observer throws is discarded: it never fails the registration. The current
  /// providers are ``Resolving/resolveAll(_:name:)``.
  ///
  /// ```swift
  /// let token = container.observe((any Exporter).self) { change in print(change) }
  /// ```
  @discardableResult
  public func observe<T>(
    _ type: T.Type, name: String? = nil,
    _ observer: @escaping @Sendable (BindingChange) throws -> Void
  ) -> ObservationToken {
    ObservationToken(
      id: registry.observe(BindingKey(T.self, name: name, arguments: Void.self), observer))
  }

  /// Stops an observer; false when the token was already removed.
  @discardableResult
  public func removeObserver(_ token: ObservationToken) -> Bool {
    registry.removeObserver(token.id)
  }

  // MARK: Inspecting

  /// Every binding visible from this container, sorted by type name, name and arguments.
  package var bindings: [BindingInfo] {
    let visible = registry.visibleBindings()
    let built = registry.builtFlags(visible)
    return zip(visible, built).map { $0.info(built: $1) }
      .map { (($0.key.typeName, $0.key.name ?? "", "\($0.key.arguments)"), $0) }
      .sorted { $0.0 < $1.0 }.map(\.1)
  }
}
