import ApiaryLifecycle
import ApiarySupport
import Dispatch

/// One module hook as the kernel runs it: `prepare` (not timed: waiting for dependencies, or
/// refusing with a reason), then `body`, bounded by `seconds` (nil: no limit). A nil `body`
/// (a module without hooks) has nothing to run or time: only `prepare` runs.
struct Hook: Sendable {
  var seconds: Double?
  var prepare: (@Sendable () async throws -> Void)?
  var body: (@Sendable () async throws -> Void)?

  /// `body` has no default, so a trailing closure is the body, never `prepare`.
  init(
    seconds: Double?, prepare: (@Sendable () async throws -> Void)? = nil,
    body: (@Sendable () async throws -> Void)?
  ) {
    self.seconds = seconds
    self.prepare = prepare
    self.body = body
  }
}

/// How a hook ended: its result, how long `body` ran, and when it finished (nil when no
/// `body` ran, so none was timed).
struct HookOutcome: Sendable {
  let result: Result<Void, any Error>
  let duration: Duration
  let finishedAt: ContinuousClock.Instant?
}

/// Runs hooks one after another in a task on a ``HookExecutor``, outside the Swift concurrency
/// pool, so module code that blocks threads holds only its own thread, never the kernel or other
/// lanes.
///
/// Each hook is bounded by its time limit through the ``Watchdog``, not by a timer or a task of
/// its own: a lane keeps one watchdog entry, so a hook that finishes in time costs a closure call
/// and two lock operations. When a
/// hook times out, its lane is abandoned, still running the hook (Swift cannot stop a thread; an
/// `async` hook's task is cancelled), and the remaining hooks go on in a new lane.
///
/// ```swift
/// let outcomes = await HookLane.run(hooks, on: executor) { index, outcome in true }  // false stops
/// ```
final class HookLane: Sendable {
  /// Whether the current task runs module hooks: a lazy module woken from inside a hook must
  /// not wait for the kernel change that is waiting for that hook.
  @TaskLocal static var isRunning = false

  /// Called once per hook, in order, with its outcome; returns whether to run the next one.
  typealias Next = @Sendable (_ index: Int, _ outcome: HookOutcome) -> Bool

  private struct State {
    /// The first hook to run, then the last hook given a deadline.
    var index: Int
    /// When the running hook's `body` began and must end; nil between hooks.
    var began: ContinuousClock.Instant?
    var deadline: ContinuousClock.Instant?
    var seconds = 0.0
    /// The earliest watchdog entry this lane has pending, if any.
    var watchedUntil: ContinuousClock.Instant?
    var abandoned = false
    var task: Task<Void, Never>?
  }

  private let hooks: [Hook]
  private let next: Next
  private let done: @Sendable () -> Void
  private let executor: HookExecutor
  private let state: Locked<State>

  private init(
    _ hooks: [Hook], from index: Int, on executor: HookExecutor, next: @escaping Next,
    done: @escaping @Sendable () -> Void
  ) {
    self.hooks = hooks
    self.executor = executor
    self.next = next
    self.done = done
    self.state = Locked(State(index: index))
  }

  /// Runs `hooks` in order and returns the outcome of each hook that ran.
  static func run(
    _ hooks: [Hook], on executor: HookExecutor, next: @escaping Next = { _, _ in true }
  ) async -> [HookOutcome] {
    guard !hooks.isEmpty else { return [] }
    var reserved: [HookOutcome] = []
    reserved.reserveCapacity(hooks.count)
    let outcomes = Locked(reserved)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      launch(hooks, on: executor) { index, outcome in
        outcomes.withLock { $0.append(outcome) }
        return next(index, outcome)
      } done: {
        continuation.resume()
      }
    }
    return outcomes.withLock { $0 }
  }

  /// Starts running `hooks` and returns at once; `done` is called exactly once, after the last
  /// hook that runs.
  static func launch(
    _ hooks: [Hook], from index: Int = 0, on executor: HookExecutor, next: @escaping Next,
    done: @escaping @Sendable () -> Void
  ) {
    guard index < hooks.count else { return done() }
    let lane = HookLane(hooks, from: index, on: executor, next: next, done: done)
    let task = Task(executorPreference: lane.executor) {
      await $isRunning.withValue(true) { await lane.drive() }
    }
    lane.state.withLock { $0.task = task }
  }

  private func drive() async {
    let clock = ContinuousClock()
    var index = state.withLock { $0.index }
    while index < hooks.count {
      let hook = hooks[index]
      var outcome = HookOutcome(result: .success(()), duration: .zero, finishedAt: nil)
      var armed = false
      do {
        if let prepare = hook.prepare { try await prepare() }
        if let body = hook.body {
          let began = clock.now
          if let seconds = hook.seconds { armed = arm(index, began: began, seconds: seconds) }
          var result = Result<Void, any Error>.success(())
          do { try await body() } catch { result = .failure(error) }
          let now = clock.now
          outcome = HookOutcome(result: result, duration: now - began, finishedAt: now)
        }
      } catch {
        outcome = HookOutcome(result: .failure(error), duration: .zero, finishedAt: nil)
      }
      // Only an armed hook can be given up on by the watchdog.
      if armed {
        let owned = state.withLock { state in
          guard !state.abandoned else { return false }
          state.began = nil
          state.deadline = nil
          return true
        }
        guard owned else { return }  // the watchdog gave up on this hook and took over
      }
      guard next(index, outcome) else { return done() }
      index += 1
    }
    done()
  }

  /// Sets the running hook's deadline. The lane keeps at most one watchdog entry: hooks that
  /// finish in time only update the deadline, and the entry, when it comes due, looks at the
  /// hook running then. Returns whether the hook has a deadline.
  private func arm(_ index: Int, began: ContinuousClock.Instant, seconds: Double) -> Bool {
    guard seconds.isFinite else { return false }
    let deadline = began + .seconds(max(0, min(seconds, 1e9)))
    let unwatched = state.withLock { state in
      state.index = index
      state.began = began
      state.deadline = deadline
      state.seconds = seconds
      guard state.watchedUntil.map({ deadline < $0 }) ?? true else { return false }
      state.watchedUntil = deadline
      return true
    }
    if unwatched { watch(until: deadline) }
    return true
  }

  /// The entry holds the lane weakly: a lane whose hooks have all run has nothing left to give
  /// up on, and holding it (its hooks, and what they captured) until the deadline kept every
  /// lane of a `:load` for the module's `timeout`. A hook still running holds its lane.
  private func watch(until deadline: ContinuousClock.Instant) {
    Watchdog.shared.arm(at: deadline) { [weak self] in self?.check(entry: deadline) }
  }

  private enum Verdict {
    case idle
    case later(ContinuousClock.Instant)
    case expired(index: Int, began: ContinuousClock.Instant, seconds: Double, Task<Void, Never>?)
  }

  /// The watchdog's side: gives up on the running hook if its deadline has passed, and goes on
  /// with the rest in a new lane; otherwise watches again until the running hook's deadline.
  private func check(entry: ContinuousClock.Instant) {
    let now = ContinuousClock.now
    let verdict = state.withLock { state -> Verdict in
      if state.watchedUntil == entry { state.watchedUntil = nil }
      guard !state.abandoned, let deadline = state.deadline, let began = state.began else {
        return .idle
      }
      guard deadline <= now else {
        guard state.watchedUntil.map({ deadline < $0 }) ?? true else { return .idle }
        state.watchedUntil = deadline
        return .later(deadline)
      }
      state.abandoned = true
      return .expired(index: state.index, began: began, seconds: state.seconds, state.task)
    }
    switch verdict {
    case .idle: return
    case .later(let deadline): watch(until: deadline)
    case .expired(let index, let began, let seconds, let task): expire(index, began, seconds, task)
    }
  }

  private func expire(
    _ index: Int, _ began: ContinuousClock.Instant, _ seconds: Double, _ task: Task<Void, Never>?
  ) {
    task?.cancel()
    let now = ContinuousClock.now
    let outcome = HookOutcome(
      result: .failure(LifecycleTimeout(seconds: seconds)), duration: now - began, finishedAt: now)
    guard next(index, outcome) else { return done() }
    Self.launch(hooks, from: index + 1, on: executor, next: next, done: done)
  }
}
