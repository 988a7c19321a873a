#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which connection, if any, the current thread reads for: an ``RPCConnection`` answers some
/// requests on its reader thread, and a call made there must read its own answer instead of
/// waiting for a reader that is busy with it.
///
/// ```swift
/// ReaderThread.enter(connection)
/// ReaderThread.isReading(for: connection)  // true on this thread only
/// ```
enum ReaderThread {
  /// Holds the connection's address, unretained (the reader thread keeps it alive).
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    _ = pthread_key_create(&key, nil)
    return key
  }()

  /// Marks the current thread as `connection`'s reader; nil unmarks it.
  static func enter(_ connection: AnyObject?) {
    _ = pthread_setspecific(key, connection.map { Unmanaged.passUnretained($0).toOpaque() })
  }

  /// Whether the current thread reads for `connection`.
  static func isReading(for connection: AnyObject) -> Bool {
    pthread_getspecific(key) == Unmanaged.passUnretained(connection).toOpaque()
  }

  /// Whether the current thread reads for any connection (and so must not block on work that
  /// may need it to read).
  static var isReading: Bool { pthread_getspecific(key) != nil }
}

/// Thrown by work that cannot run on a reader thread (it would block the thread its answer
/// needs); the connection answers the request on a worker thread instead.
struct HandOff: Error {}
