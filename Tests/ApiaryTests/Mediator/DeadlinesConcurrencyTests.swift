import Dispatch
import Testing

@testable import Apiary

/// The one timer behind every awaited call's time limit: deadlines fire in their order, a
/// cancelled one never fires, and cancelled entries do not pile up. Each test waits for a
/// deadline it expects to fire (a semaphore it signals), never for time to pass; named to run
/// under CI's thread sanitizer.
@Suite struct DeadlinesConcurrencyTests {
  @Test func deadlinesFireInTheirOrderNotTheOrderTheyWereSet() {
    let fired = Locked<[String]>([])
    let done = DispatchSemaphore(value: 0)
    for (name, seconds) in [("third", 0.03), ("first", 0.01), ("second", 0.02)] {
      _ = Deadlines.shared.schedule(after: seconds) {
        fired.withLock { $0.append(name) }
        done.signal()
      }
    }
    for _ in 0..<3 { done.wait() }
    #expect(fired.withLock { $0 } == ["first", "second", "third"])
  }

  @Test func aCancelledDeadlineNeverFires() {
    let fired = Locked<[String]>([])
    let done = DispatchSemaphore(value: 0)
    let cancelled = Deadlines.shared.schedule(after: 0.01) {
      fired.withLock { $0.append("cancelled") }
    }
    Deadlines.shared.cancel(cancelled)
    Deadlines.shared.cancel(cancelled)  // twice is harmless
    // Later than the cancelled one: had it not been cancelled, it would have fired first.
    _ = Deadlines.shared.schedule(after: 0.02) {
      fired.withLock { $0.append("kept") }
      done.signal()
    }
    done.wait()
    #expect(fired.withLock { $0 } == ["kept"])
  }

  @Test func manyCancelledDeadlinesDoNotHoldBackAnEarlierOne() {
    // Far deadlines, all cancelled: the heap is rebuilt without them, and the timer, armed for
    // the earliest, still fires the short one at its time.
    for _ in 0..<500 {
      Deadlines.shared.cancel(Deadlines.shared.schedule(after: 3_600) {})
    }
    let sizes = Deadlines.shared.sizes  // other tests' calls may hold live deadlines meanwhile
    #expect(sizes.heap <= max(64, 2 * sizes.pending))
    let done = DispatchSemaphore(value: 0)
    _ = Deadlines.shared.schedule(after: 0) { done.signal() }
    done.wait()
  }
}
