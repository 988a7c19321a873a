import ApiarySupport

/// Numbered steps one side passes and the other awaits, in order; a failure fails every wait.
///
/// ```swift
/// let steps = Checkpoints()
/// Task { steps.pass(1) }
/// try await steps.reached(1)
/// ```
final class Checkpoints: Sendable {
  private struct State {
    var passed = 0
    var failure: (any Error)?
    var waiting: [(step: Int, continuation: CheckedContinuation<Void, any Error>)] = []
  }

  private let state = Locked(State())

  /// Marks `step` (and every step before it) passed.
  func pass(_ step: Int) {
    let ready = state.withLock { state in
      state.passed = max(state.passed, step)
      let ready = state.waiting.filter { $0.step <= state.passed }
      state.waiting.removeAll { $0.step <= state.passed }
      return ready
    }
    for waiter in ready { waiter.continuation.resume() }
  }

  /// Fails every wait, now and later, unless its step was already passed.
  func fail(_ error: any Error) {
    let waiting = state.withLock { state in
      if state.failure == nil { state.failure = error }
      defer { state.waiting = [] }
      return state.waiting
    }
    for waiter in waiting { waiter.continuation.resume(throwing: error) }
  }

  /// Returns once `step` is passed; throws the failure if one comes first.
  func reached(_ step: Int) async throws {
    try await withCheckedThrowingContinuation { continuation in
      let outcome = state.withLock { state -> Result<Void, any Error>? in
        if state.passed >= step { return .success(()) }
        if let failure = state.failure { return .failure(failure) }
        state.waiting.append((step, continuation))
        return nil
      }
      if let outcome { continuation.resume(with: outcome) }
    }
  }
}
