import ApiarySupport

/// A one-shot gate: `wait()` returns once `open()` has been called (before or after).
final class Gate: Sendable {
  private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func wait() async {
    await withCheckedContinuation { continuation in
      let isOpen = state.withLock { state in
        if !state.isOpen { state.waiters.append(continuation) }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }
}

/// A stand-in for `Task.sleep` that records every requested duration; `behaviour` decides what
/// a sleep does (return at once, wait on a gate, wait for cancellation).
final class RecordingSleeper: Sendable {
  let requests = Locked<[Duration]>([])
  let behaviour: @Sendable (Duration) async throws -> Void

  init(_ behaviour: @escaping @Sendable (Duration) async throws -> Void = { _ in }) {
    self.behaviour = behaviour
  }

  var sleep: @Sendable (Duration) async throws -> Void {
    { [self] duration in
      requests.withLock { $0.append(duration) }
      try await behaviour(duration)
    }
  }
}

/// Waits until the task is cancelled, then throws `CancellationError`: a hang that ends cleanly.
func untilCancelled() async throws {
  let gate = Gate()
  await withTaskCancellationHandler {
    await gate.wait()
  } onCancel: {
    gate.open()
  }
  throw CancellationError()
}
