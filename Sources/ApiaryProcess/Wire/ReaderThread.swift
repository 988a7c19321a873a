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
/// Only its own thread touches it. Once another thread has taken over reading (``leave()``),
/// the thread no longer reads for the connection: its calls wait for their answers as any
/// caller's do.
///
/// ```swift
/// let reader = ReaderThread(reading: connection)
/// ReaderThread.enter(reader)
/// ReaderThread.current(for: connection)  // reader, on this thread only
/// ```
final class ReaderThread {
  /// The connection's address, for identity only (the thread keeps the connection alive).
  private let connection: UnsafeMutableRawPointer
  /// The thread's mark in the takeover watch (see ``ReaderTakeover/begin(_:)``).
  var mark: UInt64 = 0
  /// Whether it still reads; false once another thread took over.
  private(set) var isLeading = true

  init(reading connection: AnyObject) {
    self.connection = Unmanaged.passUnretained(connection).toOpaque()
  }

  /// Holds the current thread's reader, unretained (the thread keeps it alive while it reads).
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    _ = pthread_key_create(&key, nil)
    return key
  }()

  /// Marks the current thread as `reader`'s; nil unmarks it.
  static func enter(_ reader: ReaderThread?) {
    _ = pthread_setspecific(key, reader.map { Unmanaged.passUnretained($0).toOpaque() })
  }

  /// Another thread reads from now on: this one no longer does. On its own thread only.
  func leave() {
    isLeading = false
    Self.enter(nil)
  }

  /// The current thread's reader, if it reads for `connection`.
  static func current(for connection: AnyObject) -> ReaderThread? {
    guard let current = pthread_getspecific(key) else { return nil }
    let reader = Unmanaged<ReaderThread>.fromOpaque(current).takeUnretainedValue()
    return reader.connection == Unmanaged.passUnretained(connection).toOpaque() ? reader : nil
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
