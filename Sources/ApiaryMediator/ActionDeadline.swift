import ApiarySupport
import Dispatch
import Synchronization

/// Runs an action for an `await`ed call: off Swift's cooperative pool and within the action's
/// `timeout`. A synchronous action runs on a Dispatch thread of its own; an `async` one in a
/// task whose executor is Dispatch. The limit is one of ``Deadlines``, served by a Dispatch timer, so an
/// action that blocks its thread — or module code blocking every pool thread — cannot delay
/// it. Past the limit the caller gets ``ErrorCode/timedOut``, an `async` action is cancelled,
/// and the action's late result is dropped. An action with both bodies
/// (``Action/both(sync:async:)``) bounds its `async` body itself and runs on the caller's task.
enum ActionDeadline {
  static func run(_ prepared: PreparedAction, _ parameters: Parameters, cache: Bool)
    async throws -> (any Sendable)?
  {
    // Both bodies (process-placed targets): the `async` one holds no thread while it waits and
    // bounds itself by the action's `timeout`, so it runs on the caller's task, with no hop to a
    // Dispatch worker and no race.
    if prepared.boundsItself { return try await prepared.runAsync(parameters, cache) }
    let race = Race()
    let seconds = prepared.manifest.timeout
    return try await withCheckedThrowingContinuation { continuation in
      let work = Locked<Task<Void, Never>?>(nil)
      race.begin(continuation, seconds: seconds) {
        let timedOut = MediatorError.timedOut(
          target: prepared.target, action: prepared.action, seconds: seconds)
        if race.finish(.failure(timedOut)) { work.withLock { $0 }?.cancel() }
      }
      if let run = prepared.runSync {
        ActionDeadline.thread { race.finish(Result { try run(parameters, cache) }) }
      } else {
        let task = Task(executorPreference: DispatchExecutor.shared) {
          do {
            race.finish(.success(try await prepared.runAsync(parameters, cache)))
          } catch {
            race.finish(.failure(error))
          }
        }
        work.withLock { $0 = task }
      }
    }
  }

  /// Runs `work` on a Dispatch thread at once, even when every thread Dispatch has is held by
  /// an action that blocks: a serial queue of its own is served by a new thread then (the global
  /// queue would wait for one to free, so one module's hung actions delayed every other
  /// module's calls past their time limits).
  static func thread(_ work: @escaping @Sendable () -> Void) {
    DispatchQueue(label: "apiary.action").async(execute: work)
  }

  /// Resumes the caller exactly once, whichever of the action and the deadline finishes first,
  /// and cancels the deadline then, so a finished call leaves nothing scheduled behind it.
  private final class Race: Sendable {
    private let continuation = Locked<CheckedContinuation<(any Sendable)?, any Error>?>(nil)
    private let finished = Atomic<Bool>(false)
    private let deadline = Atomic<UInt64>(Race.noDeadline)
    private static let noDeadline = UInt64.max

    func begin(
      _ continuation: CheckedContinuation<(any Sendable)?, any Error>, seconds: Double,
      onTimeout: @escaping @Sendable () -> Void
    ) {
      self.continuation.withLock { $0 = continuation }
      let token = Deadlines.shared.schedule(after: seconds, onTimeout)
      deadline.store(token, ordering: .releasing)
    }

    /// Resumes with `result` unless the other side already did; true when this call won.
    @discardableResult
    func finish(_ result: Result<(any Sendable)?, any Error>) -> Bool {
      guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return false }
      let token = deadline.load(ordering: .acquiring)
      if token != Self.noDeadline { Deadlines.shared.cancel(token) }
      continuation.withLock { $0.take() }?.resume(with: result)
      return true
    }
  }
}

/// Runs tasks' jobs on Dispatch threads (``ActionDeadline/thread(_:)``) instead of Swift's
/// cooperative pool, so an `async` action that blocks its thread takes no pool thread, and
/// no other action's thread.
final class DispatchExecutor: TaskExecutor {
  static let shared = DispatchExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    ActionDeadline.thread { job.runSynchronously(on: executor) }
  }
}
