#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a `pthread_mutex_t`, with the same `withLock` shape as
/// `Synchronization.Mutex`; `Sendable` when its value is, like swift-service-lifecycle's
/// `LockedValueBox`. The one lock of the runtime.
///
/// A pthread mutex because the thread sanitizer understands pthread locks but not the futex
/// `Mutex` uses on Linux (with `Mutex`, every correctly locked access is reported as a race,
/// which would hide real ones in CI's `--sanitize=thread` run), and because it is the cheapest
/// lock on Linux (8–15 ns against 18–24 ns for `Mutex`). The mutex lives at a stable address,
/// so inlined code (the container's resolve path) can ``lock()`` and ``unlock()`` it directly.
///
/// ```swift
/// let counts = Locked([String: Int]())
/// counts.withLock { $0["calls", default: 0] += 1 }
/// ```
@usableFromInline
package final class Locked<Value> {
  @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  // Read or written only while `mutex` is held.
  private var value: Value

  package init(_ value: Value) {
    self.value = value
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value. Never call module code inside it.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }

  /// Takes the mutex without touching the value, for a `Locked<Void>` that guards state kept
  /// elsewhere (the container's tables). Pair every call with ``unlock()``.
  @inlinable @inline(__always)
  package func lock() { pthread_mutex_lock(mutex) }

  @inlinable @inline(__always)
  package func unlock() { pthread_mutex_unlock(mutex) }
}

// Sendable: `value` is only read or written inside `withLock`, which holds `mutex`.
extension Locked: @unchecked Sendable where Value: Sendable {}
