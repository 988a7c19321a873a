import ApiarySupport
import Dispatch

/// The reading half of an ``RPCConnection``: its frame reader, and the right to use it, which
/// one thread holds at a time (leader/follower).
///
/// The connection's reader thread takes it whenever input arrives. A thread making a
/// synchronous call takes it while it waits for its answer, if it is free, and reads the answer
/// itself: no thread is woken to hand it over. Whoever holds it dispatches every frame it
/// reads, so nothing waits for a particular thread. The reader thread, finding it taken, waits
/// until the holder gives it back (``release()`` hands it over directly).
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
  // accesses before the next holder's (and `readerTurn` does so for a hand-over).

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
  /// Signalled when ``release()`` hands the read side to the waiting reader thread.
  private let readerTurn = DispatchSemaphore(value: 0)

  init(descriptor: Int32) {
    self.descriptor = descriptor
    frames = FrameReader(descriptor: descriptor)
  }

  /// Waits until input arrives (or ends), without taking the read side.
  func waitForInput() {
    _ = try? FrameReader.readable(descriptor, waiting: true)
  }

  /// Takes the read side if no thread holds it.
  func tryAcquire() -> Bool {
    token.withLock { token in
      guard !token.held else { return false }
      token.held = true
      return true
    }
  }

  /// Takes the read side, waiting while another thread holds it. The reader thread only (one
  /// waiter at a time).
  func acquire() {
    let free = token.withLock { token in
      guard token.held else {
        token.held = true
        return true
      }
      token.readerWaiting = true
      return false
    }
    if !free { readerTurn.wait() }
  }

  /// Gives the read side up: to the reader thread if it waits for it, else to whoever takes it
  /// next.
  func release() {
    let handOver = token.withLock { token in
      guard token.readerWaiting else {
        token.held = false
        return false
      }
      token.readerWaiting = false  // still held: the reader thread holds it now
      return true
    }
    if handOver { readerTurn.signal() }
  }
}
