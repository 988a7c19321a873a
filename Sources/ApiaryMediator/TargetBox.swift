import Synchronization

/// One declared target: how to create it, its context, and its cached instance, if any.
///
/// The box is not generic, so the call path runs no unspecialized generic code (which would look
/// up `Optional<T>` metadata on every call); ``PreparedAction`` casts the instance back to its
/// type.
final class TargetBox: Sendable {
  let manifest: TargetManifest
  let typeName: String
  let owner: String
  /// Creates an instance of the target type; the only source of objects in `cached`.
  private let make: @Sendable (ModuleContext) throws -> any Target
  private let context: ModuleContext
  private let cached = Locked<(any Target)?>(nil)

  init<T: Target>(
    _ type: T.Type, manifest: TargetManifest, typeName: String, owner: String,
    context: ModuleContext
  ) {
    self.manifest = manifest
    self.typeName = typeName
    self.owner = owner
    self.context = context
    self.make = { context in try T(context: context) }
  }

  var isCached: Bool { cached.withLock { $0 != nil } }

  /// The cached instance when `cache` is true (created and cached on first use), else a new
  /// instance that is never cached. `init(context:)` runs outside the lock; when two callers race
  /// to create the cached instance, the first one stored wins and both get it.
  func instance(cache: Bool) throws(MediatorError) -> any Target {
    if cache, let existing = cached.withLock({ $0 }) { return existing }
    let created: any Target
    do {
      created = try make(context)
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

  /// Creates the target (or takes the cached one) and asks its not-found handler.
  func notFound(_ call: ActionCall, cache: Bool) throws -> NotFoundResult {
    try instance(cache: cache).notFound(call)
  }

  /// Takes the cached instance out; the caller drops it outside any mediator lock.
  func takeCached() -> (any Target)? {
    cached.withLock { slot in
      defer { slot = nil }
      return slot
    }
  }
}
