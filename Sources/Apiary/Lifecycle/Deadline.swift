import Synchronization

/// Runs module code with a time limit. The code runs in its own task, so a module that hangs —
/// even one that never reaches a suspension point — cannot hold the kernel: after `seconds` the
/// caller gets ``LifecycleTimeout`` and the task is cancelled and abandoned.
enum Deadline {
  static func run(
    seconds: Double, _ body: @escaping @Sendable () async throws -> Void
  ) async throws {
    let race = Race()
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      race.begin(continuation)
      let work = Task {
        do {
          try await body()
          race.finish(.success(()))
        } catch {
          race.finish(.failure(error))
        }
      }
      let timer = Task {
        try await Task.sleep(for: .seconds(seconds))
        if race.finish(.failure(LifecycleTimeout(seconds: seconds))) { work.cancel() }
      }
      race.onFinish { timer.cancel() }
    }
  }

  /// Resumes the continuation exactly once, whichever side finishes first.
  private final class Race: Sendable {
    private let state = Mutex<
      (CheckedContinuation<Void, any Error>?, (@Sendable () -> Void)?, Bool)
    >(
      (nil, nil, false))

    func begin(_ continuation: CheckedContinuation<Void, any Error>) {
      state.withLock { $0.0 = continuation }
    }

    /// Registers cleanup to run once finished (at once when already finished).
    func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
      let runNow = state.withLock { state -> Bool in
        if state.2 { return true }
        state.1 = cleanup
        return false
      }
      if runNow { cleanup() }
    }

    @discardableResult
    func finish(_ result: Result<Void, any Error>) -> Bool {
      let (continuation, cleanup) = state.withLock {
        state -> (CheckedContinuation<Void, any Error>?, (@Sendable () -> Void)?) in
        guard !state.2 else { return (nil, nil) }
        state.2 = true
        defer {
          state.0 = nil
          state.1 = nil
        }
        return (state.0, state.1)
      }
      guard let continuation else { return false }
      continuation.resume(with: result)
      cleanup?()
      return true
    }
  }
}

/// A lifecycle hook that did not finish within its manifest's `timeout`.
public struct LifecycleTimeout: Error, Sendable, Hashable, CustomStringConvertible {
  public let seconds: Double
  public var description: String { "did not finish within \(seconds) s (manifest 'timeout')" }
}
