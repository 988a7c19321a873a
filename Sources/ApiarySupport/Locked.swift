#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a `pthread_mutex_t`, with the same `withLock` shape as
/// `Synchronization.Mutex`.
///
/// Used instead of `Mutex` because the thread sanitizer understands pthread locks but not the
/// futex `Mutex` uses on Linux: with `Mutex`, every correctly locked access is reported as a race,
/// which would hide real ones in CI's `--sanitize=thread` run.
///
/// ```swift
/// let counts = Locked([String: Int]())
/// counts.withLock { $0["calls", default: 0] += 1 }
/// ```
final class Locked<Value>: @unchecked Sendable {
  // Sendable: `value` is only read or written inside `withLock`, which holds `mutex`.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private var value: Value

  init(_ value: Value) {
    self.value = value
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value. Never call module code inside it.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
