/// Returned by registration, to expose the same instance under more types and to add
/// post-construction hooks.
///
/// ```swift
/// try container.register(FileStore.self, scope: .singleton) { _ in FileStore() }
///   .implements((any NoteStore).self)
///   .implements((any SearchIndexSource).self)
///   .initCompleted { r, store in store.index = try r.resolve() }
/// ```
public struct BindingHandle<T>: Sendable {
  let container: Container
  let name: String?
  /// The tuple type of the binding's runtime arguments (`Void` for none).
  let arguments: Any.Type
  let addCompletion: @Sendable (@escaping @Sendable (Resolver, T) throws -> Void) -> Void

  /// Binds `service` (and `alias` name) to this binding's instance: a singleton stays one
  /// instance under every type, and a binding with runtime arguments is resolved under
  /// `service` with the same arguments. The instance is checked against `service` when first
  /// resolved (at once for a bound instance); a mismatch is
  /// ``ErrorCode/doesNotConform``. `rank` makes the alias one of
  /// several ranked providers of `service` (see ``Container/register(_:name:scope:eager:override:rank:factory:)``).
  @discardableResult
  public func implements<P>(
    _ service: P.Type, name alias: String? = nil, override: Bool = false, rank: Int? = nil
  ) throws(ContainerError) -> BindingHandle<T> {
    func add<Args>(_: Args.Type) throws(ContainerError) {
      try addAlias(P.self, Args.self, alias: alias, override: override, rank: rank)
    }
    try _openExistential(arguments, do: add)
    return self
  }

  private func addAlias<P, Args>(
    _: P.Type, _: Args.Type, alias: String?, override: Bool, rank: Int?
  ) throws(ContainerError) {
    let target = ServiceKey(T.self, name: name, arguments: Args.self)
    let aliasKey = ServiceKey(P.self, name: alias, arguments: Args.self)
    if let binding = container.registry.typedBinding(T.self, name: name, Void.self),
      binding.kind.isInstance, let instance = try container.optional(T.self, name: name),
      !(instance is P)
    {
      throw .doesNotConform(aliasKey, implementation: type(of: instance as Any), source: nil)
    }
    let targetName = name
    try container.add(
      Binding<P, Args>(
        aliasKey, scope: .transient, owner: container.owner, kind: .alias(of: target),
        order: container.registry.family.nextOrder(), rank: rank,
        family: container.registry.family
      ) { r, arguments in
        let instance = try r.registry.resolve(T.self, name: targetName, arguments: arguments)
        guard let converted = instance as? P else {
          throw ContainerError.doesNotConform(
            aliasKey, implementation: type(of: instance as Any), source: nil)
        }
        return converted
      }, override: override)
  }

  /// Runs `hook` after each instance is created and before anyone else gets it. A singleton is
  /// visible to resolves made inside the hook, so two singletons can reference each other.
  @discardableResult
  public func initCompleted(_ hook: @escaping @Sendable (Resolver, T) throws -> Void)
    -> BindingHandle<T>
  {
    addCompletion(hook)
    return self
  }
}

extension BindingInfo.Kind {
  var isInstance: Bool {
    if case .instance = self { true } else { false }
  }
}
