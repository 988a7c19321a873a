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
  let addCompletion: @Sendable (@escaping @Sendable (Resolver, T) throws -> Void) -> Void

  /// Binds `service` (and `alias` name) to this binding's instance (for bindings without runtime
  /// arguments): a singleton stays one
  /// instance under every type. The instance is checked against `service` when first resolved (at
  /// once for a bound instance); a mismatch is ``ContainerError/doesNotConform(_:implementation:)``.
  @discardableResult
  public func implements<P>(_ service: P.Type, name alias: String? = nil, override: Bool = false)
    throws(ContainerError) -> BindingHandle<T>
  {
    let target = ServiceKey(T.self, name: name)
    let aliasKey = ServiceKey(P.self, name: alias)
    if let binding = container.registry.typedBinding(T.self, name: name, Void.self),
      binding.kind.isInstance, let instance = try container.optional(T.self, name: name),
      !(instance is P)
    {
      throw .doesNotConform(aliasKey, implementation: type(of: instance as Any))
    }
    let targetName = name
    try container.add(
      Binding<P, Void>(
        aliasKey, scope: .transient, owner: container.owner, kind: .alias(of: target),
        order: container.registry.family.nextOrder(), family: container.registry.family
      ) { r, _ in
        let instance = try r.resolve(T.self, name: targetName)
        guard let converted = instance as? P else {
          throw ContainerError.doesNotConform(aliasKey, implementation: type(of: instance as Any))
        }
        return converted
      }, override: override)
    return self
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
