import ApiarySupport

/// The bindings of one container (shared by its owned views), looked up before its parent's.
///
/// `@unchecked Sendable`: `table` is read and written only while holding `family.lock`, which
/// is shared by every registry of a family; everything else is immutable.
@usableFromInline
final class Registry: @unchecked Sendable {
  @usableFromInline let family: Family
  /// `family.lock`, held here so the hot path reaches it without retaining anything: the
  /// family, which this registry holds, keeps it alive.
  @usableFromInline unowned(unsafe) let lock: Locked<Void>
  @usableFromInline let parent: Registry?
  // Guarded by `lock`, which also gives the exclusivity that dynamic checks would enforce.
  @exclusivity(unchecked) @usableFromInline var table: [BindingKey: AnyBinding]

  init(
    family: Family, parent: Registry?,
    table: [BindingKey: AnyBinding] = [:]
  ) {
    self.family = family
    self.lock = family.lock
    self.parent = parent
    self.table = table
  }

  // MARK: Resolving

  /// The binding for `key` here or in an ancestor. The caller holds `family.lock`.
  @inlinable @inline(__always)
  func find(_ key: BindingKey) -> AnyBinding? {
    if let binding = table[key] { return binding }
    var next = parent
    while let registry = next {
      if let binding = registry.table[key] { return binding }
      next = registry.parent
    }
    return nil
  }

  /// The registry in this chain whose table holds `binding`. The caller holds `family.lock`.
  @usableFromInline
  func home(of binding: AnyBinding) -> Registry? {
    var registry: Registry? = self
    while let current = registry {
      if current.table[binding.key] === binding { return current }
      registry = current.parent
    }
    return nil
  }

  /// The typed binding for `T` and `Args`, or nil.
  @inline(__always)
  private func binding<T, Args>(_: T.Type, name: String?, _: Args.Type) -> Binding<T, Args>? {
    let key = BindingKey(T.self, name: name, arguments: Args.self)
    family.lock.lock()
    defer { family.lock.unlock() }
    guard let found = find(key) else { return nil }
    // Every binding stored under a key made of `T.self` and `Args.self` is a `Binding<T, Args>`
    // (keys are only ever built from the binding's own generic parameters), so this cannot fail.
    return unsafeDowncast(found, to: Binding<T, Args>.self)
  }

  @inlinable @inline(__always)
  func resolve<T, Args>(_: T.Type, name: String?, arguments: Args) throws(ContainerError) -> T {
    guard let value = try resolveIfBound(T.self, name: name, arguments: arguments) else {
      throw .notBound(
        ServiceKey(T.self, name: name, arguments: Args.self),
        nearby: NearbyBindings(
          registry: self, key: ServiceKey(T.self, name: name, arguments: Args.self)))
    }
    return value
  }

  @inlinable @inline(__always)
  func resolveIfBound<T, Args>(_: T.Type, name: String?, arguments: Args) throws(ContainerError)
    -> T?
  {
    let key = BindingKey(T.self, name: name, arguments: Args.self)
    lock.lock()
    guard let found = find(key) else {
      lock.unlock()
      return nil
    }
    // See `binding(_:name:_:)`: the key guarantees the dynamic type.
    let binding = unsafeDowncast(found, to: Binding<T, Args>.self)
    if let value = binding.existing() {
      lock.unlock()
      return value
    }
    lock.unlock()
    return try binding.produce(arguments, requester: self)
  }

  func contains(_ key: BindingKey) -> Bool {
    family.lock.lock()
    defer { family.lock.unlock() }
    return find(key) != nil
  }

  /// The typed binding for a handle (`initCompleted`), if still registered.
  func typedBinding<T, Args>(_: T.Type, name: String?, _: Args.Type) -> Binding<T, Args>? {
    binding(T.self, name: name, Args.self)
  }

  // MARK: Registering

  func insert(_ binding: AnyBinding, override: Bool) throws(ContainerError) {
    lock.lock()
    let previous = table[binding.key]
    if !override, let previous {
      lock.unlock()
      throw .duplicate(binding.serviceKey, existingOwner: previous.owner, newOwner: binding.owner)
    }
    table[binding.key] = binding
    lock.unlock()
    // A replaced singleton is released here, outside the lock: its deinit may run module code.
    withExtendedLifetime(previous) {}
  }

  /// Removes `owner`'s bindings; their instances are released once nobody else holds them.
  func removeAll(ownedBy owners: Set<String>) {
    lock.lock()
    let removed = table.filter { $0.value.owner.map(owners.contains) ?? false }
    for key in removed.keys { table[key] = nil }
    lock.unlock()
    // Released here, outside the lock: deinitializers may run module code.
    withExtendedLifetime(removed) {}
  }

  /// A registry holding this chain's bindings (children's win) minus `owners`' bindings.
  /// Built singletons are shared; bindings not yet built get their own cache.
  func derived(removing owners: Set<String>) -> Registry {
    family.lock.lock()
    defer { family.lock.unlock() }
    let table = chainTable().filter { $0.value.owner.map { !owners.contains($0) } ?? true }
      .mapValues { $0.copyForDerivation() }
    return Registry(family: family, parent: nil, table: table)
  }

  // MARK: Inspecting

  /// This chain's bindings, a child's shadowing its parent's. The caller holds `family.lock`.
  private func chainTable() -> [BindingKey: AnyBinding] {
    var merged: [BindingKey: AnyBinding] = [:]
    var registry: Registry? = self
    while let current = registry {
      for (key, binding) in current.table where merged[key] == nil {
        merged[key] = binding
      }
      registry = current.parent
    }
    return merged
  }

  /// Every binding visible from here (a child's shadows its parent's), in registration order.
  func visibleBindings() -> [AnyBinding] {
    family.lock.lock()
    defer { family.lock.unlock() }
    return chainTable().values.sorted { $0.order < $1.order }
  }

  /// Whether each of `bindings` has a shared instance.
  func builtFlags(_ bindings: [AnyBinding]) -> [Bool] {
    family.lock.lock()
    defer { family.lock.unlock() }
    return bindings.map(\.isBuilt)
  }

  /// This registry's own eager bindings, in registration order.
  func eagerBindings() -> [AnyBinding] {
    family.lock.lock()
    defer { family.lock.unlock() }
    return table.values.filter(\.isEager).sorted { $0.order < $1.order }
  }
}
