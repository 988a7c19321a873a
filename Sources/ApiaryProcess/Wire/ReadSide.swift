import ApiarySupport
import Dispatch

/// The reading half of an ``RPCConnection``: its frame reader, and the right to use it, which
/// one thread holds at a time (leader/follower).
///
/// A thread making a synchronous call takes it while it waits for its answer, if it is free,
/// and reads the answer itself: no other thread is woken to pass it on. The connection's reader
/// thread takes it when input arrives and no caller holds it. Whoever holds it dispatches every
/// frame it reads, so nothing waits for a particular thread, and it holds it only while it
/// reads (never while blocked waiting for input, except a call made on the reader thread).
///
/// ```swift
/// if side.tryAcquire() {
///   defer { side.release() }
///   while let body = try side.frames.buffered() { handle(body) }
/// }
/// ```
final class ReadSide: @unchecked Sendable {
  // `@unchecked Sendable`: `frames` and `endReason` are touched only by the thread holding the
  // read side; `held` and `readerWaiting` change under `token`'s lock, which orders one holder's
  // accesses before the next holder's.

  /// The frames read so far. Holder only.
  var frames: FrameReader
  /// Why the input ended, once it has. Holder only.
  var endReason: String?

  private struct Token {
    var held = false
    var readerWaiting = false
  }

  private let descriptor: Int32
  private let token = Locked(Token())
  /// Signalled by ``release()`` when the reader thread waits in ``waitUntilFree()``.
  private let released = DispatchSemaphore(value: 0)

  init(descriptor: Int32) {
    self.descriptor = descriptor
    frames = FrameReader(descriptor: descriptor)
  }

  /// Takes the read side if no thread holds it.
  func tryAcquire() -> Bool {
    token.withLock { token in
      guard !token.held else { return false }
      token.held = true
      return true
    }
  }

  /// Gives the read side up, waking the reader thread if it waits for that.
  func release() {
    let wake = token.withLock { token in
      token.held = false
      defer { token.readerWaiting = false }
      return token.readerWaiting
    }
    if wake { released.signal() }
  }

  /// Waits until no thread holds the read side (it may be taken again at once). The reader
  /// thread only: one waiter at a time.
  func waitUntilFree() {
    let held = token.withLock { token in
      token.readerWaiting = token.held
      return token.held
    }
    if held { released.wait() }
  }

  /// Waits until input arrives (or ends), without taking the read side.
  func waitForInput() {
    _ = try? FrameReader.readable(descriptor, waiting: true)
  }

  /// Whether input waits to be read (or the input ended).
  func hasInput() -> Bool {
    (try? FrameReader.readable(descriptor, waiting: false)) ?? true
  }

  /// Whether a thread holds the read side.
  var isHeld: Bool { token.withLock { $0.held } }
}
