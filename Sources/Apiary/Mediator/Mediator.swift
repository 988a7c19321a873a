// STUB — the mediator issue replaces this file. The kernel relies on these signatures.

/// Target-action calls between modules.
public final class Mediator: Sendable {
  public init(scheme: String, catalog: TypeCatalog, fallback: ActionReference? = nil) {}

  /// Adds a module's declared targets; they are created lazily from `context`.
  public func addTargets(_ targets: [TargetManifest], owner: String, context: ModuleContext)
    throws
  {}

  /// Removes every target owned by `owner`; later calls take the not-found path.
  public func removeTargets(ownedBy owner: String) {}
}
