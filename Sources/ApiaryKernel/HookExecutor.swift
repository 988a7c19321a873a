import ApiarySupport
import Dispatch

/// Runs module hooks on threads outside the Swift concurrency pool, as few as the hooks allow.
///
/// Jobs wait in one queue, drained by one thread while hooks return or suspend promptly, so a
/// boot costs a couple of thread hand-offs, not one per module. When jobs have waited for
/// ``stallLimit`` while no thread took any (every thread is held by a hook that blocks), one
/// more thread is added: a blocking hook holds its own thread, never the others' hooks, and
/// the kernel's time limits still fire. Threads leave when the queue is empty.
///
/// ```swift
/// let executor = HookExecutor()
/// Task(executorPreference: executor) { try await module.start(context) }
/// ```
final class HookExecutor: TaskExecutor {
  static let stallLimit = Duration.milliseconds(2)

  private struct State {
    var jobs: [UnownedJob] = []
    var head = 0
    var threads = 0
    /// Jobs taken so far; unchanged over a stall check means no thread made progress.
    var taken = 0
    var checking = false
  }

  private let state = Locked(State())

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    enum Action {
      case none, addThread
      case check(Int)
    }
    let action = state.withLock { state -> Action in
      state.jobs.append(job)
      if state.threads == 0 {
        state.threads = 1
        return .addThread
      }
      guard !state.checking else { return .none }
      state.checking = true
      return .check(state.taken)
    }
    switch action {
    case .none: break
    case .addThread: addThread()
    case .check(let taken): checkLater(taken)
    }
  }

  private func checkLater(_ taken: Int) {
    Watchdog.shared.arm(at: .now + Self.stallLimit) { [self] in check(taken) }
  }

  /// Adds a thread when jobs wait and none was taken since `taken`; checks again while jobs wait.
  private func check(_ taken: Int) {
    let (add, recheck) = state.withLock { state -> (Bool, Int?) in
      let waiting = state.head < state.jobs.count
      guard waiting else {
        state.checking = false
        return (false, nil)
      }
      let stalled = state.taken == taken
      if stalled { state.threads += 1 }
      return (stalled, state.taken)
    }
    if add { addThread() }
    if let recheck { checkLater(recheck) }
  }

  private func addThread() {
    // A serial queue of its own gets a thread even when the cooperative pool is full.
    DispatchQueue(label: "apiary.hooks").async { [self] in drain() }
  }

  private func drain() {
    while let job = next() {
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }

  private func next() -> UnownedJob? {
    state.withLock { state in
      guard state.head < state.jobs.count else {
        state.threads -= 1
        state.jobs.removeAll(keepingCapacity: true)
        state.head = 0
        return nil
      }
      let job = state.jobs[state.head]
      state.head += 1
      state.taken += 1
      if state.head > 64, state.head * 2 > state.jobs.count {
        state.jobs.removeFirst(state.head)
        state.head = 0
      }
      return job
    }
  }
}
