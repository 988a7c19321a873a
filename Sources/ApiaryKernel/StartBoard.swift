import ApiarySupport

/// The start phase's shared record: whether each module started, for modules waiting on their
/// dependencies, and the order in which starts succeeded (teardown runs in reverse). Modules
/// are known by their position in the list the board was made with, so settling and asking
/// hash no names.
///
/// ```swift
/// let board = StartBoard(["store", "notes"])
/// board.settle(0, outcome)                  // from the lane that ran store's start
/// let ok = await board.started(0)           // in notes' prepare step
/// let (outcomes, order) = await board.all()
/// ```
final class StartBoard: Sendable {
  private struct State {
    /// By position: how each start ended, nil while it has not or when it never ran.
    var outcomes: [HookOutcome?]
    var settled: [Bool]
    var settledCount = 0
    var finished: [String] = []
    var waiters: [Int: [CheckedContinuation<Bool, Never>]] = [:]
    var whenAllSettled: CheckedContinuation<Void, Never>?

    /// Whether the start at `position` succeeded, nil while it has not ended.
    func started(_ position: Int) -> Bool? {
      settled[position] ? outcomes[position].map(StartBoard.succeeded) ?? false : nil
    }
  }

  private let names: [String]
  private let positions: [String: Int]
  private let state: Locked<State>

  init(_ names: [String]) {
    self.names = names
    positions = Dictionary(zip(names, names.indices)) { first, _ in first }
    var state = State(
      outcomes: Array(repeating: nil, count: names.count),
      settled: Array(repeating: false, count: names.count))
    state.finished.reserveCapacity(names.count)
    self.state = Locked(state)
  }

  /// The position of `name` on the board, nil when it is not on it.
  func position(of name: String) -> Int? { positions[name] }

  /// Records how the start at `position` ended; nil means it never ran. The first record wins.
  func settle(_ position: Int, _ outcome: HookOutcome?) {
    let started = outcome.map(Self.succeeded) ?? false
    let (waiters, all) = state.withLock { state in
      guard !state.settled[position] else {
        return ([CheckedContinuation<Bool, Never>](), CheckedContinuation<Void, Never>?.none)
      }
      state.settled[position] = true
      state.settledCount += 1
      state.outcomes[position] = outcome
      if started { state.finished.append(names[position]) }
      let all = state.settledCount == names.count ? state.whenAllSettled.take() : nil
      let waiters = state.waiters.isEmpty ? [] : state.waiters.removeValue(forKey: position) ?? []
      return (waiters, all)
    }
    for waiter in waiters { waiter.resume(returning: started) }
    all?.resume()
  }

  /// Whether the module at `position` started; waits until its start has ended. A start already
  /// ended (the usual case: sync modules start in plan order) is answered without suspending.
  func started(_ position: Int) async -> Bool {
    if let known = state.withLock({ $0.started(position) }) { return known }
    return await withCheckedContinuation { continuation in
      let known = state.withLock { state -> Bool? in
        if let known = state.started(position) { return known }
        state.waiters[position, default: []].append(continuation)
        return nil
      }
      if let known { continuation.resume(returning: known) }
    }
  }

  private static func succeeded(_ outcome: HookOutcome) -> Bool {
    if case .success = outcome.result { true } else { false }
  }

  /// Waits until every module's start has ended; returns the outcomes by position (nil for
  /// those that never ran) and the names of those that started, in the order they finished.
  func all() async -> (outcomes: [HookOutcome?], finished: [String]) {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state in
        guard state.settledCount == names.count else {
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
