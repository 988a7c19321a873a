import ApiarySupport
import Synchronization

/// The locks shared by a container and every container made from it (owned views, children,
/// derived containers), so one short lock covers every table and singleton cache they share.
///
/// - `lock` guards all mutable registry and binding state. It is held for a dictionary lookup
///   or insert, never while module code runs.
/// - `construction` serialises building singletons and weak instances, so each is built exactly
///   once. It is recursive because a factory resolves its dependencies on the same thread. It
///   is never taken by registration or by a resolve that finds a built instance.
///
/// `@unchecked Sendable`: `lock` is `Sendable`, `construction` is a lock made to be shared
/// between threads, and `sequence` is atomic.
@usableFromInline
final class Family: @unchecked Sendable {
  @usableFromInline let lock = Locked(())
  @usableFromInline let construction = RecursiveLock()
  private let sequence = Atomic<Int>(0)

  init() {}

  /// A number that orders registrations (eager singletons are built in this order).
  func nextOrder() -> Int { sequence.wrappingAdd(1, ordering: .relaxed).newValue }
}
