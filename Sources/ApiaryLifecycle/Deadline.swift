import ApiarySupport
import Dispatch
import Synchronization

/// Runs module code with a time limit. The code runs in its own task, so a module that hangs —
/// even one that never reaches a suspension point — cannot hold the kernel: after `seconds` the
/// caller gets ``LifecycleTimeout`` and the task is cancelled and abandoned.
package enum Deadline {
  package static func run(
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
      // The timer runs on Dispatch, not on the Swift concurrency pool, so module code that
      // blocks the pool's threads cannot delay it. When the work wins, the timer finds the race
      // over and does nothing.
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
        if race.finish(.failure(LifecycleTimeout(seconds: seconds))) { work.cancel() }
      }
    }
  }

  /// Resumes the continuation exactly once, whichever side finishes first.
  private final class Race: Sendable {
    private let continuation = Locked<CheckedContinuation<Void, any Error>?>(nil)
    private let finished = Atomic<Bool>(false)

    func begin(_ continuation: CheckedContinuation<Void, any Error>) {
      self.continuation.withLock { $0 = continuation }
    }

    /// Resumes with `result` unless the other side already did; true when this call won.
    @discardableResult
    func finish(_ result: Result<Void, any Error>) -> Bool {
      guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return false }
      continuation.withLock { $0.take() }?.resume(with: result)
      return true
    }
  }
}

/// A lifecycle hook that did not finish within its manifest's `timeout`.
public struct LifecycleTimeout: Error, Sendable, Hashable, CustomStringConvertible {
  public let seconds: Double
  public var description: String { "did not finish within \(seconds) s (manifest 'timeout')" }
}
