import Synchronization

/// A registered target whose concrete type is hidden, for the not-found path and inspection.
protocol RegisteredTarget: AnyObject, Sendable {
  var manifest: TargetManifest { get }
  var typeName: String { get }
  var owner: String { get }
  var isCached: Bool { get }
  /// Creates the target (or takes the cached one) and asks its not-found handler.
  func notFound(_ call: ActionCall, cache: Bool) throws -> NotFoundResult
  /// Takes the cached instance out; the caller drops it outside any mediator lock.
  func takeCached() -> AnyObject?
}

/// One declared target of type `T`: its context and its cached instance, if any.
final class TargetBox<T: Target>: RegisteredTarget {
  let manifest: TargetManifest
  let typeName: String
  let owner: String
  private let context: ModuleContext
  private let cached = Mutex<T?>(nil)

  init(manifest: TargetManifest, typeName: String, owner: String, context: ModuleContext) {
    self.manifest = manifest
    self.typeName = typeName
    self.owner = owner
    self.context = context
  }

  var isCached: Bool { cached.withLock { $0 != nil } }

  /// The cached instance when `cache` is true (created and cached on first use), else a new
  /// instance that is never cached. `init(context:)` runs outside the lock; when two callers race
  /// to create the cached instance, the first one stored wins and both get it.
  func instance(cache: Bool) throws(MediatorError) -> T {
    if cache, let existing = cached.withLock({ $0 }) { return existing }
    let created: T
    do {
      created = try T(context: context)
    } catch {
      throw .targetCreationFailed(
        target: manifest.name, owner: owner, reason: String(describing: error))
    }
    guard cache else { return created }
    return cached.withLock { slot in
      if let existing = slot { return existing }
      slot = created
      return created
    }
  }

  func notFound(_ call: ActionCall, cache: Bool) throws -> NotFoundResult {
    try instance(cache: cache).notFound(call)
  }

  func takeCached() -> AnyObject? {
    cached.withLock { slot in
      defer { slot = nil }
      return slot
    }
  }
}
