import ApiarySupport

@testable import ApiaryProcess

/// Collects a supervisor's events; `wait(until:)` returns once an event matching it arrived.
final class EventLog: Sendable {
  private let state = Locked<
    (
      events: [SupervisorEvent],
      waiters: [(matches: Matcher, resume: CheckedContinuation<Void, Never>)]
    )
  >(([], []))
  typealias Matcher = @Sendable (SupervisorEvent) -> Bool

  var events: [SupervisorEvent] { state.withLock { $0.events } }

  var handler: @Sendable (SupervisorEvent) -> Void {
    { [self] event in
      let ready = state.withLock { state in
        state.events.append(event)
        let ready = state.waiters.filter { $0.matches(event) }
        state.waiters.removeAll { $0.matches(event) }
        return ready.map(\.resume)
      }
      for waiter in ready { waiter.resume() }
    }
  }

  func wait(until matches: @escaping Matcher) async {
    await withCheckedContinuation { continuation in
      let seen = state.withLock { state in
        if state.events.contains(where: matches) { return true }
        state.waiters.append((matches, continuation))
        return false
      }
      if seen { continuation.resume() }
    }
  }

  static let gaveUp: Matcher = {
    if case .gaveUp = $0 { return true }
    return false
  }

  static func started(count: Int) -> Matcher {
    let seen = Locked(0)
    return { event in
      guard case .started = event else { return false }
      return seen.withLock {
        $0 += 1
        return $0 >= count
      }
    }
  }

  static let restarting: Matcher = {
    if case .restarting = $0 { return true }
    return false
  }
}
