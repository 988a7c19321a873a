/// Resolves services (see ``Resolving``); factories receive one.
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

  /// Itself: factories resolve through it directly.
  @inlinable
  public var resolver: Resolver { self }
}

extension Resolver: Resolving {}
