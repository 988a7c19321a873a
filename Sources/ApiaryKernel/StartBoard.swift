import ApiarySupport

/// The start phase's shared record: whether each module started, for modules waiting on their
/// dependencies, and the order in which starts succeeded (teardown runs in reverse).
///
/// ```swift
/// let board = StartBoard(["store", "notes"])
/// board.settle("store", outcome)            // from the lane that ran store's start
/// let ok = await board.started("store")     // in notes' prepare step
/// let (outcomes, order) = await board.all()
/// ```
final class StartBoard: Sendable {
  private struct State {
    var outcomes: [String: HookOutcome] = [:]
    var settled: Set<String> = []
    var finished: [String] = []
    var waiters: [String: [CheckedContinuation<Bool, Never>]] = [:]
    var whenAllSettled: CheckedContinuation<Void, Never>?
  }

  private let names: Set<String>
  private let state = Locked(State())

  init(_ names: [String]) { self.names = Set(names) }

  func contains(_ name: String) -> Bool { names.contains(name) }

  /// Records how `name`'s start ended; nil means it never ran. The first record wins.
  func settle(_ name: String, _ outcome: HookOutcome?) {
    let started: Bool
    if let outcome, case .success = outcome.result { started = true } else { started = false }
    let (waiters, all) = state.withLock { state in
      guard state.settled.insert(name).inserted else {
        return ([CheckedContinuation<Bool, Never>](), CheckedContinuation<Void, Never>?.none)
      }
      if let outcome { state.outcomes[name] = outcome }
      if started { state.finished.append(name) }
      let all = state.settled.count == names.count ? state.whenAllSettled.take() : nil
      return (state.waiters.removeValue(forKey: name) ?? [], all)
    }
    for waiter in waiters { waiter.resume(returning: started) }
    all?.resume()
  }

  /// Whether `name` started; waits until its start has ended.
  func started(_ name: String) async -> Bool {
    await withCheckedContinuation { continuation in
      let settled = state.withLock { state -> Bool? in
        guard state.settled.contains(name) else {
          state.waiters[name, default: []].append(continuation)
          return nil
        }
        if let outcome = state.outcomes[name], case .success = outcome.result { return true }
        return false
      }
      if let settled { continuation.resume(returning: settled) }
    }
  }

  /// Waits until every module's start has ended; returns the outcomes of those that ran and the
  /// names of those that started, in the order they finished.
  func all() async -> (outcomes: [String: HookOutcome], finished: [String]) {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state in
        guard state.settled.count == names.count else {
          state.whenAllSettled = continuation
          return false
        }
        return true
      }
      if ready { continuation.resume() }
    }
    return state.withLock { ($0.outcomes, $0.finished) }
  }
}
