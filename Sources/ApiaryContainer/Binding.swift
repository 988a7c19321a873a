import ApiarySupport
import Synchronization

/// A binding of `T` created from runtime arguments of tuple type `Args` (`Void` for none).
///
/// Stored under a key made of `T.self` and `Args.self`, so a lookup by that key can downcast
/// to exactly this class without a dynamic cast.
///
/// `@unchecked Sendable`: `cached`, `weakObject` and `completions` are read and written only
/// while holding `family.lock`; `hasCompletions` is atomic; the rest is immutable. `T` need not
/// be `Sendable`, because an instance is kept and handed to every thread only in the shared
/// scopes (`singleton`, `weak`, an `instance:` or a ``CustomScope``), and the public
/// `Container.register` overloads that create those require `T: Sendable`; the overloads for
/// other types bind `.transient` (a new instance per resolve, never stored here).
/// `SendableSingletonTests` checks that the compiler refuses the rest.
///
/// One path the compiler cannot see: a manifest `services` entry names its implementation, an
/// ``Injectable`` class, as text, and the kernel binds it at run time in the scope the manifest
/// declares. `Injectable` cannot require `Sendable`: an ``Injected`` property is a stored `var`,
/// which a `Sendable` class may not have. The manifest reference says a shared manifest
/// service must be safe to use from any thread.
@usableFromInline
final class Binding<T, Args>: AnyBinding, @unchecked Sendable {
  @usableFromInline typealias Make = @Sendable (Resolver, Args) throws -> T
  @usableFromInline typealias Completion = @Sendable (Resolver, T) throws -> Void

  @usableFromInline let make: Make
  /// The singleton or bound instance.
  @exclusivity(unchecked) @usableFromInline var cached: T?
  /// The weak-scoped instance.
  @exclusivity(unchecked) @usableFromInline weak var weakObject: AnyObject?
  @usableFromInline var completions: [Completion] = []
  @usableFromInline let hasCompletions = Atomic<Bool>(false)

  init(
    _ serviceKey: ServiceKey, scope: Scope, owner: String?, kind: BindingInfo.Kind,
    isEager: Bool = false, source: SourceLocation? = nil, order: Int, rank: Int? = nil,
    family: Family, instance: T? = nil, make: @escaping Make
  ) {
    self.make = make
    self.cached = instance
    super.init(
      key: BindingKey(T.self, name: serviceKey.name, arguments: Args.self),
      serviceKey: serviceKey, scope: scope, owner: owner, kind: kind, isEager: isEager,
      source: source, order: order, rank: rank, family: family)
  }

  private convenience init(copying other: Binding<T, Args>) {
    self.init(
      other.serviceKey, scope: other.scope, owner: other.owner, kind: other.kind,
      isEager: other.isEager, source: other.source, order: other.order, rank: other.rank,
      family: other.family, make: other.make)
    completions = other.completions
    hasCompletions.store(!completions.isEmpty, ordering: .releasing)
  }

  /// The shared instance, if one exists. The caller holds `family.lock`.
  @inlinable @inline(__always)
  func existing() -> T? {
    if let cached { return cached }
    guard scope == .weak, let weakObject else { return nil }
    return weakObject as? T
  }

  override var isBuilt: Bool { existing() != nil }

  override func copyForDerivation() -> AnyBinding {
    scope == .singleton && cached != nil ? self : Binding(copying: self)
  }

  override func takeBuilt() -> Any? {
    guard !kind.isInstance else { return nil }
    defer {
      cached = nil
      weakObject = nil
    }
    return cached
  }

  override func buildEagerly(in registry: Registry) throws(ContainerError) {
    guard let arguments = () as? Args else { return }
    _ = try produce(arguments, requester: registry)
  }

  /// Adds a hook that runs after the instance is created and before anyone else gets it.
  func addCompletion(_ completion: @escaping Completion) {
    family.lock.lock()
    completions.append(completion)
    family.lock.unlock()
    hasCompletions.store(true, ordering: .releasing)
  }

  /// Creates (or, for singletons built meanwhile by another thread, fetches) an instance.
  /// Called without `family.lock` held; never calls module code while holding it.
  @inlinable
  func produce(_ arguments: Args, requester: Registry) throws(ContainerError) -> T {
    let state = ResolutionState.current
    let id = ObjectIdentifier(self)
    // The current graph's instance, or a singleton whose completion hooks are running.
    if scope != .transient, let pending = state.instances[id], let value = pending as? T {
      return value
    }
    if state.stack.contains(where: { $0 === self }) {
      throw .cycle(state.cyclePath(to: self))
    }
    let shared = scope == .singleton || scope == .weak
    var resolver = Resolver(registry: requester)
    if shared { family.construction.lock() }
    defer { if shared { family.construction.unlock() } }
    if shared {
      family.lock.lock()
      let built = existing()
      let home = requester.home(of: self)
      family.lock.unlock()
      if let built { return built }
      // A shared instance is built from the container that holds the binding, so it does not
      // depend on which child container asked first.
      resolver = Resolver(registry: home ?? requester)
    }
    state.stack.append(self)
    defer {
      state.stack.removeLast()
      if shared { state.instances[id] = nil }
      if state.stack.isEmpty, state.graph != nil || !state.instances.isEmpty {
        state.endGraph()
      }
    }
    let value: T
    do { value = try make(resolver, arguments) } catch { throw wrap(error) }
    if scope != .transient { state.instances[id] = value }
    if hasCompletions.load(ordering: .acquiring) {
      family.lock.lock()
      let hooks = completions
      family.lock.unlock()
      for hook in hooks {
        do { try hook(resolver, value) } catch { throw wrap(error) }
      }
    }
    if shared {
      family.lock.lock()
      if scope == .singleton { cached = value } else { weakObject = value as AnyObject }
      family.lock.unlock()
    }
    return value
  }

  /// The error a factory or hook threw, as a ``ContainerError``; a missing dependency names
  /// this binding in its chain.
  @usableFromInline
  func wrap(_ error: any Error) -> ContainerError {
    guard let error = error as? ContainerError else {
      return .factoryFailed(serviceKey, underlying: error)
    }
    return error.neededBy(binding: serviceKey)
  }
}
