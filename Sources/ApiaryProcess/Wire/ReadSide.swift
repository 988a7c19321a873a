import ApiarySupport

/// The reading half of an ``RPCConnection``: its frame reader, and the right to use it, which
/// one thread holds at a time (leader/follower).
///
/// A thread making a synchronous call takes it while it waits for its answer, if it is free,
/// and reads the answer itself: no other thread is woken to pass it on, and the reader
/// thread's ``InputWatch`` is disarmed meanwhile, so the frames the caller reads do not wake it
/// either. The reader thread takes it when input arrives and no caller holds it. Whoever holds
/// it dispatches every frame it reads, so nothing waits for a particular thread, and gives it
/// back with the watch armed again, which wakes the reader thread at once if input came since.
/// A reader thread stuck in a request it answers itself passes it, still held, to the reader
/// thread that takes over from it (``ReaderTakeover``).
///
/// ```swift
/// if side.tryAcquire(caller: true) {
///   defer { side.release() }
///   while let body = try side.frames.buffered() { handle(body) }
/// }
/// ```
final class ReadSide: @unchecked Sendable {
  // `@unchecked Sendable`: `frames` and `endReason` are touched only by the thread holding the
  // read side; `held` changes under a lock, which orders one holder's accesses before the
  // next holder's.

  /// The frames read so far. Holder only.
  var frames: FrameReader
  /// Why the input ended, once it has. Holder only.
  var endReason: String?
  /// When the last frame was read (a value of ``Spin/now()``; 0 before the first). Holder only.
  var lastFrame: UInt64 = 0

  /// Whether a thread holds the read side; the watch changes under this lock too, so its state
  /// always matches (disarmed while a caller holds it, but for the moment between a caller's
  /// ``tryAcquireBeforeSending()`` and its ``disarm()``).
  private let held = Locked(false)
  private let watch: InputWatch

  init(descriptor: Int32) {
    frames = FrameReader(descriptor: descriptor)
    watch = InputWatch(descriptor: descriptor)
  }

  /// Takes the read side if no thread holds it. A `caller` (not the reader thread) also
  /// disarms the reader thread's watch; the reader thread's went off as it woke.
  func tryAcquire(caller: Bool) -> Bool {
    held.withLock { held in
      guard !held else { return false }
      held = true
      if caller { watch.disarm() }
      return true
    }
  }

  /// Takes the read side, if no thread holds it, for a caller about to send a request: the
  /// watch stays armed until ``disarm()``, which the caller calls once its request is out (the
  /// time the answer takes, not the round trip, pays for it). An answer that comes first wakes
  /// the reader thread once, which finds the read side held and waits again.
  func tryAcquireBeforeSending() -> Bool {
    held.withLock { held in
      guard !held else { return false }
      held = true
      return true
    }
  }

  /// Disarms the reader thread's watch; holder only (after ``tryAcquireBeforeSending()``).
  func disarm() {
    held.withLock { _ in watch.disarm() }
  }

  /// Gives the read side up and arms the reader thread's watch again.
  func release() {
    held.withLock { held in
      held = false
      watch.arm()
    }
  }

  /// The reader thread: waits until input arrives while no caller reads (or ends).
  func waitForInput() {
    watch.wait()
  }
}
