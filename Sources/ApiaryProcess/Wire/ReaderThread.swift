#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A connection's reader thread, as that thread knows itself: which connection it reads for,
/// and its mark in the connection's ``ReaderTakeover`` while it answers a request itself. An
/// ``RPCConnection`` answers some requests on its reader thread, and a call made there must read
/// its own answer instead of waiting for a reader that is busy with it.
///
/// It lives on its thread's stack and is reached through a pointer, so the path of every
/// request counts no references; only its own thread touches it. Once another thread has taken
/// over reading (``leave()``), the thread no longer reads for the connection: its calls wait
/// for their answers as any caller's do.
///
/// ```swift
/// ReaderThread.reading(for: connection) {
///   ReaderThread.current(for: connection)  // its reader, on this thread only
/// }
/// ```
struct ReaderThread {
  /// The connection's address, for identity only (the thread keeps the connection alive).
  private let connection: UnsafeMutableRawPointer
  /// The thread's mark in the takeover watch (see ``ReaderTakeover/begin(_:)``).
  var mark: UInt64 = 0
  /// Whether it still reads; false once another thread took over.
  private(set) var isLeading = true

  /// Holds the current thread's reader.
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    _ = pthread_key_create(&key, nil)
    return key
  }()

  /// Runs `body` as `connection`'s reader thread: with a new reader, the current thread's until
  /// `body` returns or it leaves.
  static func reading(for connection: AnyObject, _ body: () -> Void) {
    var reader = ReaderThread(connection: Unmanaged.passUnretained(connection).toOpaque())
    withUnsafeMutablePointer(to: &reader) { reader in
      _ = pthread_setspecific(key, reader)
      body()
      _ = pthread_setspecific(key, nil)
    }
  }

  /// Another thread reads from now on: this one no longer does. On its own thread only.
  mutating func leave() {
    isLeading = false
    _ = pthread_setspecific(Self.key, nil)
  }

  /// The current thread's reader, if it reads for `connection`.
  static func current(for connection: AnyObject) -> UnsafeMutablePointer<ReaderThread>? {
    guard let current = pthread_getspecific(key) else { return nil }
    let reader = current.assumingMemoryBound(to: ReaderThread.self)
    return reader.pointee.connection == Unmanaged.passUnretained(connection).toOpaque()
      ? reader : nil
  }

  /// Whether the current thread reads for `connection`.
  static func isReading(for connection: AnyObject) -> Bool {
    current(for: connection) != nil
  }

  /// Whether the current thread reads for any connection (and so must not block on work that
  /// may need it to read).
  static var isReading: Bool { pthread_getspecific(key) != nil }
}

/// Thrown by work that cannot run on a reader thread (it would block the thread its answer
/// needs); the connection answers the request on a worker thread instead.
struct HandOff: Error {}
