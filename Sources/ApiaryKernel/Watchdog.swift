import ApiarySupport
import Dispatch

/// Fires time limits from one thread of its own, outside the Swift concurrency pool, so module
/// code that blocks every worker thread cannot delay it. Arming costs a lock and a heap push; a
/// hook that finishes in time is never touched again (its entry is dropped when it comes due).
///
/// ```swift
/// Watchdog.shared.arm(at: .now + .seconds(5)) { lane.expire(step) }
/// ```
final class Watchdog: Sendable {
  static let shared = Watchdog()

  private struct Entry: Comparable, Sendable {
    let deadline: ContinuousClock.Instant
    let sequence: Int
    let expire: @Sendable () -> Void

    static func < (lhs: Entry, rhs: Entry) -> Bool {
      (lhs.deadline, lhs.sequence) < (rhs.deadline, rhs.sequence)
    }
    static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.sequence == rhs.sequence }
  }

  private struct State: Sendable {
    var entries = Heap<Entry>()
    var sequence = 0
    /// When the watchdog thread wakes next on its own; an earlier deadline must wake it.
    var sleepsUntil: ContinuousClock.Instant?
  }

  private let state = Locked(State())
  private let wake = DispatchSemaphore(value: 0)

  private init() {
    // A serial queue of its own runs on a thread outside the cooperative pool; the loop keeps
    // that thread for the life of the process.
    DispatchQueue(label: "apiary.watchdog").async { [self] in loop() }
  }

  /// Calls `expire` on the watchdog thread once `deadline` has passed. `expire` must be quick
  /// and decide for itself whether the hook it guards is still running.
  func arm(at deadline: ContinuousClock.Instant, _ expire: @escaping @Sendable () -> Void) {
    let earlier = state.withLock { state in
      state.sequence += 1
      state.entries.push(Entry(deadline: deadline, sequence: state.sequence, expire: expire))
      guard state.sleepsUntil.map({ deadline < $0 }) ?? true else { return false }
      state.sleepsUntil = deadline
      return true
    }
    if earlier { wake.signal() }
  }

  private func loop() {
    let clock = ContinuousClock()
    while true {
      let now = clock.now
      let (due, next) = state.withLock { state in
        var due: [Entry] = []
        while let first = state.entries.first, first.deadline <= now {
          state.entries.removeFirst()
          due.append(first)
        }
        state.sleepsUntil = state.entries.first?.deadline
        return (due, state.sleepsUntil)
      }
      for entry in due { entry.expire() }
      guard due.isEmpty else { continue }
      if let next {
        _ = wake.wait(timeout: .now() + min((next - now).inSeconds, 86_400))
      } else {
        wake.wait()
      }
    }
  }
}
