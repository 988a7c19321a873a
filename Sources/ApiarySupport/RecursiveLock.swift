#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A lock that the thread holding it may take again, released once for each time it was taken:
/// a `pthread_mutex_t` of type `PTHREAD_MUTEX_RECURSIVE`.
///
/// ```swift
/// let lock = RecursiveLock()
/// lock.lock()
/// lock.lock()  // the same thread: does not wait
/// lock.unlock()
/// lock.unlock()
/// ```
@usableFromInline
package final class RecursiveLock: @unchecked Sendable {
  // `@unchecked Sendable`: the mutex is what makes sharing it safe; it lives at a fixed address.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  @usableFromInline
  package init() {
    mutex = .allocate(capacity: 1)
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  @usableFromInline
  package func lock() { pthread_mutex_lock(mutex) }

  @usableFromInline
  package func unlock() { pthread_mutex_unlock(mutex) }
}
