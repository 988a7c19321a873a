import ApiarySupport
import Synchronization

/// Keeps a connection reading while its reader thread is stuck in a request it answers itself
/// (inline, as the child answers `perform`): leader/follower with lazy promotion, so the fast
/// path hands nothing to another thread.
///
/// The reader thread marks each inline request and wakes nobody: a plain store as the request
/// starts (a new odd mark) and a compare-and-swap to even as it ends, its one locked
/// instruction. While a reader thread holds the read side, a tick on ``Deadlines`` looks at the
/// mark every ``period``; a mark unchanged since the last tick and odd is a request running for
/// at least that long. The tick then swaps that mark itself and starts a new reader thread,
/// which carries on with the read side the stuck thread holds. The stuck thread, when its
/// request ends, finds its swap failing: it writes its answer and exits instead of reading on,
/// so exactly one thread reads at any time. The ticks stop at a tick that finds the reader
/// thread idle (waiting for input) and the mark unchanged; the reader thread starts them again
/// when it next takes the read side, once per wake-up rather than per request.
///
/// At most ``maxStuck`` threads are left stuck at once. Past that the stuck reader is not
/// replaced until one of them returns: the child answers nothing meanwhile, the host's action
/// timeouts fail the calls waiting for it, and its health check, if it has one, kills and
/// restarts the child when a ping goes unanswered.
///
/// ```swift
/// takeover.reading(connection)  // the reader thread took the read side
/// reader.mark = takeover.begin()  // before a request's handler
/// if !takeover.end(reader.mark) { reader.leave() }  // after: another thread took over
/// takeover.idle()  // it gives the read side back
/// ```
final class ReaderTakeover: Sendable {
  /// How long an inline request runs before another thread takes over reading: at least one
  /// period, at most two. Requests that answer in microseconds never reach it; one that takes
  /// longer costs a new thread (tens of microseconds) once.
  static let period = 0.005
  /// How many stuck reader threads are left running at once, at most.
  static let maxStuck = 8

  /// Odd while the reader thread runs an inline request (a new value for each), even otherwise.
  private let mark = Atomic<UInt64>(0)
  /// Whether a reader thread holds the read side.
  private let active = Atomic<Bool>(false)
  /// Whether ticks are scheduled.
  private let ticking = Atomic<Bool>(false)
  /// Reader threads taken over from that have not exited yet.
  private let stuck = Atomic<Int>(0)

  /// A reader thread took the read side: starts the ticks if they had stopped (they keep
  /// `connection` alive while they run).
  func reading(_ connection: RPCConnection) {
    // Sequentially consistent with the tick's stop: either the tick sees this thread active,
    // or this thread sees that the ticks stopped.
    active.store(true, ordering: .sequentiallyConsistent)
    if !ticking.load(ordering: .sequentiallyConsistent) {
      resume(connection, seen: mark.load(ordering: .relaxed))
    }
  }

  /// The reader thread gives the read side back.
  func idle() {
    active.store(false, ordering: .releasing)
  }

  /// The reader thread, holding the read side: an inline request starts; returns its mark.
  func begin() -> UInt64 {
    let started = mark.load(ordering: .relaxed) &+ 1
    // Releasing: a tick that takes over sees all this thread did with the read side.
    mark.store(started, ordering: .releasing)
    return started
  }

  /// The reader thread: the request of `started` ended, or the thread reads for it (a call it
  /// makes). False when another thread took over meanwhile: this one must not read again.
  func end(_ started: UInt64) -> Bool {
    mark.compareExchange(expected: started, desired: started &+ 1, ordering: .acquiringAndReleasing)
      .exchanged
  }

  /// A reader thread that was taken over from exits.
  func left() {
    stuck.subtract(1, ordering: .relaxed)
  }

  /// Schedules the ticks unless another thread just did.
  private func resume(_ connection: RPCConnection, seen: UInt64) {
    guard !ticking.exchange(true, ordering: .acquiringAndReleasing) else { return }
    schedule(connection, seen: seen)
  }

  private func schedule(_ connection: RPCConnection, seen: UInt64) {
    _ = Deadlines.shared.schedule(after: Self.period) { [self] in tick(connection, seen: seen) }
  }

  /// One look at the mark, `seen` the period before.
  private func tick(_ connection: RPCConnection, seen: UInt64) {
    let now = mark.load(ordering: .acquiring)
    if now == seen, !active.load(ordering: .sequentiallyConsistent) {
      // The reader thread waits for input and answered nothing since: stop, unless it took
      // the read side again just now.
      ticking.store(false, ordering: .sequentiallyConsistent)
      if active.load(ordering: .sequentiallyConsistent) {
        resume(connection, seen: mark.load(ordering: .relaxed))
      }
      return
    }
    var next = now
    // The same request for a whole period: take the read side over from its thread.
    if now == seen, now & 1 == 1, stuck.load(ordering: .relaxed) < Self.maxStuck,
      mark.compareExchange(expected: now, desired: now &+ 1, ordering: .acquiringAndReleasing)
        .exchanged
    {
      stuck.add(1, ordering: .relaxed)
      connection.takeOverReading()
      next = now &+ 1
    }
    schedule(connection, seen: next)
  }
}
