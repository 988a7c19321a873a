#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A plain `pthread_mutex_t` at a stable address: the cheapest lock on Linux (8–15 ns against
/// 18–24 ns for `Synchronization.Mutex`), and a value that inlined code can use without
/// retaining anything. ``Family`` creates and destroys it.
@usableFromInline
struct Lock {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  @inlinable @inline(__always)
  func lock() { pthread_mutex_lock(mutex) }

  @inlinable @inline(__always)
  func unlock() { pthread_mutex_unlock(mutex) }

  func destroy() {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }
}
