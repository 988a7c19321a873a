import ApiaryManifest
import ApiarySupport
import Synchronization

/// One declared target: how to create it and its cached instance, if any.
///
/// The box is not generic, so the call path runs no unspecialized generic code (which would look
/// up `Optional<T>` metadata on every call); ``PreparedAction`` casts the instance back to its
/// type.
final class TargetBox: Sendable {
  let manifest: TargetManifest
  let typeName: String
  let owner: String
  /// Creates an instance of the target type; the only source of objects in `cached`.
  private let make: @Sendable () throws -> any ActionTarget
  private let cached = Locked<(any ActionTarget)?>(nil)

  init(
    manifest: TargetManifest, typeName: String, owner: String,
    make: @escaping @Sendable () throws -> any ActionTarget
  ) {
    self.manifest = manifest
    self.typeName = typeName
    self.owner = owner
    self.make = make
  }

  var isCached: Bool { cached.withLock { $0 != nil } }

  /// The cached instance when `cache` is true (created and cached on first use), else a new
  /// instance that is never cached. `init(context:)` runs outside the lock; when two callers race
  /// to create the cached instance, the first one stored wins and both get it.
  func instance(cache: Bool) throws(MediatorError) -> any ActionTarget {
    if cache, let existing = cached.withLock({ $0 }) { return existing }
    let created: any ActionTarget
    do {
      created = try make()
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
  func takeCached() -> (any ActionTarget)? {
    cached.withLock { slot in
      defer { slot = nil }
      return slot
    }
  }
}
