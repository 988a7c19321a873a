import ApiarySupport

/// The bindings of one container (shared by its owned views), looked up before its parent's.
///
/// A key usually has one binding. It has several when modules register ranked providers of it
/// (`rank:`), or when an override or a child's binding hides another one: `stacked` then keeps
/// them all in registration order, so removing a module brings back what it hid, and `table`
/// holds the one `resolve` uses, so resolving never looks further.
///
/// `@unchecked Sendable`: `table`, `stacked`, `observers`, `nextObserverID` and `hasEager` are
/// read and written only while holding `family.lock`, which is shared by every registry of a
/// family; everything else is immutable.
@usableFromInline
final class Registry: @unchecked Sendable {
  @usableFromInline let family: Family
  /// `family.lock`, held here so the hot path reaches it without retaining anything: the
  /// family, which this registry holds, keeps it alive.
  @usableFromInline unowned(unsafe) let lock: Locked<Void>
  @usableFromInline let parent: Registry?
  // Guarded by `lock`, which also gives the exclusivity that dynamic checks would enforce.
  @exclusivity(unchecked) @usableFromInline var table: [BindingKey: AnyBinding]
  /// Keys with more than one binding: all of them, in registration order.
  private var stacked: [BindingKey: [Candidate]] = [:]
  private var observers: [BindingKey: [(id: Int, observer: BindingObserver)]] = [:]
  private var nextObserverID = 0
  /// Whether an eager binding was ever inserted: until one is, building eager singletons (at
  /// boot and at every wake-up) need not look at every binding.
  private var hasEager = false

  init(family: Family, parent: Registry?) {
    self.family = family
    self.lock = family.lock
    self.parent = parent
    self.table = [:]
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

  /// Every binding registered under `key` in this registry, in registration order; `table`
  /// holds the winner. The caller holds `lock`.
  private func candidates(_ key: BindingKey) -> [Candidate] {
    if let list = stacked[key] { return list }
    return table[key].map { [Candidate(binding: $0, replaces: false)] } ?? []
  }

  /// Stores `key`'s candidates and makes the winner of the visible ones the binding resolves
  /// find. The caller holds `lock`.
  private func store(_ list: [Candidate], for key: BindingKey) {
    stacked[key] = list.count > 1 ? list : nil
    table[key] = Candidate.winner(of: list)
  }

  /// Makes room in `table` for `count` more keys.
  func reserveCapacity(_ count: Int) {
    lock.lock()
    table.reserveCapacity(table.count + count)
    lock.unlock()
  }

  func insert(_ binding: AnyBinding, override: Bool) throws(ContainerError) {
    lock.lock()
    if binding.isEager { hasEager = true }
    // One lookup for the key's first binding, which has nothing to replace or refuse; another
    // one puts the key's binding back for the checks below.
    if let existing = table.updateValue(binding, forKey: binding.key) {
      table[binding.key] = existing
    } else {
      let changes = observers.isEmpty ? [] : changes(binding.key, before: [])
      lock.unlock()
      notify(changes)
      return
    }
    var list = candidates(binding.key)
    let before = observers.isEmpty ? [] : Candidate.visible(list).map(\.binding)
    // A lazy module's own binding replaces its placeholder in one step, so no resolve in
    // between finds the key unbound.
    var dropped = list.filter { isPlaceholder($0, of: binding) }
    if !dropped.isEmpty { list.removeAll { isPlaceholder($0, of: binding) } }
    let visible = Candidate.visible(list)
    if !override, let existing = visible.last?.binding,
      binding.rank == nil || visible.contains(where: { $0.binding.rank == nil })
    {
      lock.unlock()
      throw .duplicate(binding.serviceKey, existingOwner: existing.owner, newOwner: binding.owner)
    }
    // An override keeps what it replaces, to bring it back when the overriding owner is
    // removed; an owner replacing its own binding needs nothing back.
    if override {
      dropped += list.filter { $0.binding.owner == binding.owner }
      list.removeAll { $0.binding.owner == binding.owner }
    }
    list.append(Candidate(binding: binding, replaces: override))
    store(list, for: binding.key)
    let changes = changes(binding.key, before: before)
    lock.unlock()
    // A replaced singleton is released here, outside the lock: its deinit may run module code.
    withExtendedLifetime(dropped) {}
    notify(changes)
  }

  /// Whether `candidate` is a placeholder that `binding`, made by the same owner, replaces.
  private func isPlaceholder(_ candidate: Candidate, of binding: AnyBinding) -> Bool {
    candidate.binding.kind.isPlaceholder && !binding.kind.isPlaceholder
      && candidate.binding.owner == binding.owner
  }

  /// Removes `owner`'s bindings; their instances are released once nobody else holds them. A
  /// binding they overrode or shadowed in this registry is visible again.
  func removeAll(ownedBy owners: Set<String>) {
    func isRemoved(_ candidate: Candidate) -> Bool {
      candidate.binding.owner.map(owners.contains) ?? false
    }
    lock.lock()
    var keys = Set(table.filter { $0.value.owner.map(owners.contains) ?? false }.keys)
    for (key, list) in stacked where list.contains(where: isRemoved) { keys.insert(key) }
    var removed: [Candidate] = []
    var changes: [Change] = []
    for key in keys {
      let list = candidates(key)
      let before = observers.isEmpty ? [] : Candidate.visible(list).map(\.binding)
      removed += list.filter(isRemoved)
      store(list.filter { !isRemoved($0) }, for: key)
      changes += self.changes(key, before: before)
    }
    lock.unlock()
    // Released here, outside the lock: deinitializers may run module code.
    withExtendedLifetime(removed) {}
    notify(changes)
  }

  /// A registry holding this chain's bindings minus `owners`' bindings: per key, a child's
  /// bindings shadow its parent's, and an override what it replaced, unless their owner is
  /// removed. Built singletons are shared; bindings not yet built get their own cache.
  func derived(removing owners: Set<String>) -> Registry {
    family.lock.lock()
    defer { family.lock.unlock() }
    var chain: [Registry] = []
    var next: Registry? = self
    while let registry = next {
      chain.insert(registry, at: 0)
      next = registry.parent
    }
    var merged: [BindingKey: [Candidate]] = [:]
    for registry in chain {
      for key in Set(registry.table.keys).union(registry.stacked.keys) {
        var list = registry.candidates(key)
        // A child's first binding of a key shadows the parent's.
        if merged[key] != nil, !list.isEmpty { list[0].replaces = true }
        merged[key, default: []] += list
      }
    }
    let result = Registry(family: family, parent: nil)
    for (key, list) in merged {
      let kept = list.filter { $0.binding.owner.map { !owners.contains($0) } ?? true }
        .map { Candidate(binding: $0.binding.copyForDerivation(), replaces: $0.replaces) }
      if !kept.isEmpty { result.store(kept, for: key) }
    }
    return result
  }

  // MARK: Several providers

  /// Every visible binding of `key` in the nearest registry of the chain that binds it, highest
  /// rank first, then earliest registration.
  func providers(_ key: BindingKey) -> [AnyBinding] {
    lock.lock()
    defer { lock.unlock() }
    var next: Registry? = self
    while let registry = next {
      let list = registry.candidates(key)
      if !list.isEmpty { return Candidate.visible(list).map(\.binding).sorted(by: Candidate.ranks) }
      next = registry.parent
    }
    return []
  }

  // MARK: Reset

  /// Drops the built singleton and weak instances of this registry's bindings (of `key` only,
  /// when given); bound instances stay. They are released outside the lock.
  func resetInstances(of key: BindingKey?) {
    lock.lock()
    let bindings: [AnyBinding]
    if let key {
      bindings = candidates(key).map(\.binding)
    } else {
      bindings = table.keys.flatMap { candidates($0).map(\.binding) }
    }
    let dropped = bindings.map { $0.takeBuilt() }
    lock.unlock()
    withExtendedLifetime(dropped) {}
  }

  // MARK: Observing

  /// Adds `observer` for the bindings of `key`; returns its id for ``removeObserver(_:)``.
  func observe(_ key: BindingKey, _ observer: @escaping BindingObserver) -> Int {
    lock.lock()
    defer { lock.unlock() }
    nextObserverID += 1
    observers[key, default: []].append((nextObserverID, observer))
    return nextObserverID
  }

  func removeObserver(_ id: Int) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    for (key, list) in observers {
      guard let index = list.firstIndex(where: { $0.id == id }) else { continue }
      observers[key]?.remove(at: index)
      if observers[key]?.isEmpty == true { observers[key] = nil }
      return true
    }
    return false
  }

  /// What observers of `key` must hear, given the visible bindings before a change. The caller
  /// holds `lock`.
  private func changes(_ key: BindingKey, before: [AnyBinding]) -> [Change] {
    guard let list = observers[key] else { return [] }
    let after = Candidate.visible(candidates(key)).map(\.binding)
    func change(_ kind: BindingChange.Kind, _ binding: AnyBinding) -> BindingChange {
      BindingChange(kind: kind, key: binding.serviceKey, owner: binding.owner, rank: binding.rank)
    }
    var events: [BindingChange] = []
    for old in before where !after.contains(where: { $0 === old }) {
      events.append(change(.removed, old))
    }
    for new in after where !before.contains(where: { $0 === new }) {
      events.append(change(.added, new))
    }
    return events.isEmpty ? [] : [Change(observers: list.map(\.observer), events: events)]
  }

  /// Calls observers; never while holding `lock`. An observer's error is dropped: it must not
  /// break the registration that caused it.
  private func notify(_ changes: [Change]) {
    for change in changes {
      for observer in change.observers {
        for event in change.events { try? observer(event) }
      }
    }
  }

  private struct Change {
    let observers: [BindingObserver]
    let events: [BindingChange]
  }

  // MARK: Inspecting

  /// Every binding visible from here, in registration order: per key, the visible bindings of
  /// the nearest registry that binds it (a child's shadow its parent's). The caller holds
  /// `family.lock`.
  private func chainBindings() -> [AnyBinding] {
    var seen = Set<BindingKey>()
    var result: [AnyBinding] = []
    var registry: Registry? = self
    while let current = registry {
      for key in current.table.keys where seen.insert(key).inserted {
        result += Candidate.visible(current.candidates(key)).map(\.binding)
      }
      registry = current.parent
    }
    return result
  }

  /// Every binding visible from here (a child's shadows its parent's), in registration order.
  func visibleBindings() -> [AnyBinding] {
    family.lock.lock()
    defer { family.lock.unlock() }
    return chainBindings().sorted { $0.order < $1.order }
  }

  /// Whether each of `bindings` has a shared instance.
  func builtFlags(_ bindings: [AnyBinding]) -> [Bool] {
    family.lock.lock()
    defer { family.lock.unlock() }
    return bindings.map(\.isBuilt)
  }

  /// This registry's own visible eager bindings, in registration order.
  func eagerBindings() -> [AnyBinding] {
    family.lock.lock()
    defer { family.lock.unlock() }
    guard hasEager else { return [] }
    // A key with one binding has it in `table` only; one with several, in `stacked` too.
    var eager = table.values.filter { $0.isEager && stacked[$0.key] == nil }
    for list in stacked.values {
      eager += Candidate.visible(list).lazy.map(\.binding).filter(\.isEager)
    }
    return eager.sorted { $0.order < $1.order }
  }
}

/// Called with each change to the bindings of an observed key.
typealias BindingObserver = @Sendable (BindingChange) throws -> Void

/// One binding registered under a key, and whether it hides the ones registered before it (an
/// override, or a child container's binding over its parent's).
struct Candidate {
  let binding: AnyBinding
  var replaces: Bool

  /// The bindings `resolveAll` sees: from the last one that replaces the others.
  static func visible(_ list: [Candidate]) -> ArraySlice<Candidate> {
    list[(list.lastIndex(where: \.replaces) ?? list.startIndex)...]
  }

  /// The binding `resolve` uses: the highest rank (unranked counts as 0), then the earliest.
  static func winner(of list: [Candidate]) -> AnyBinding? {
    visible(list).map(\.binding).min(by: ranks)
  }

  /// Whether `a` comes before `b`: a higher rank, then an earlier registration.
  static func ranks(_ a: AnyBinding, _ b: AnyBinding) -> Bool {
    let (rankA, rankB) = (a.rank ?? 0, b.rank ?? 0)
    return rankA != rankB ? rankA > rankB : a.order < b.order
  }
}
