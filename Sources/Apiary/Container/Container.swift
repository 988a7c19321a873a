// STUB — the container issue replaces this file. The kernel relies on these signatures.

/// Services and dependency injection.
public final class Container: Sendable {
  let owner: String?
  let catalog: TypeCatalog

  public init(catalog: TypeCatalog = TypeCatalog()) {
    self.owner = nil
    self.catalog = catalog
  }

  private init(owner: String, catalog: TypeCatalog) {
    self.owner = owner
    self.catalog = catalog
  }

  /// A view of this container whose registrations are owned by `owner`.
  public func owned(by owner: String) -> Container {
    Container(owner: owner, catalog: catalog)
  }

  /// Binds a manifest service entry, owned by this view's owner.
  public func bind(_ service: ServiceManifest) throws {}

  /// Builds every eager singleton not yet built.
  public func buildEagerSingletons() throws {}

  /// Removes every binding owned by `owner` and releases its singletons.
  public func removeAll(ownedBy owner: String) {}
}
