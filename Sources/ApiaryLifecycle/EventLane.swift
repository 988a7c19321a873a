import ApiarySupport
import Dispatch
import Synchronization

/// Runs one post's handlers in order in a task of their own while the poster waits, each
/// bounded by its owner's time limit, so a handler that hangs, suspended or blocking its thread,
/// holds only its own task and thread, never the post or the handlers after it.
///
/// A handler costs a compare-and-swap and a store; the time is watched by one entry in
/// ``Deadlines`` per post, which comes due every sixteenth of the shortest limit of the bus's
/// handlers while the post runs and is cancelled when it ends. The watch sees which handler runs
/// by its position; when that handler has run its limit (at most two checks later), it gives up
/// on it: cancels its task, reports an ``EventTimeout`` for its module and goes on with the next
/// handler in a new task. The abandoned handler keeps its thread until it returns; its result
/// is dropped, and its late end is logged (the bus's `log`).
///
/// A handler's time is the time its task could run. It starts when the handler starts (its
/// position, set between its dormant module's wake and its call), not when the post or its
/// task does. The watch checks on the executor the handler's task runs on (Swift's pool, or the
/// bus's executor after an abandoned handler), each check counting at most two intervals since
/// the last: while no thread of it is free, neither the handler nor the watch goes on, and the
/// wait is not counted. That holds for a handler that holds one of those threads itself: it is
/// abandoned only once a thread is free again (Swift's pool gives no way to tell it from one
/// waiting for a thread). So nothing bounds a post whose task gets no thread; it waits, as its
/// poster would for any task on the pool, until one is free.
///
/// ```swift
/// let report = await EventLane.run(handlers, event, on: bus, shortest: 10)
/// ```
final class EventLane: @unchecked Sendable {
  // `@unchecked Sendable`: `report` is touched only by whoever holds the handler in progress,
  // the task running it or the watch that gave up on it; `position`'s compare-and-swap hands it
  // from one to the other. Everything else is immutable or behind `watch`'s lock.

  /// `position` once the watch gave up on the handler in progress.
  private static let abandoned = -1

  private let subscriptions: [EventBus.Subscription]
  private let event: Event
  private let bus: EventBus
  /// The poster's priority, at which the watch checks (the handlers' tasks inherit it).
  private let priority: TaskPriority
  @exclusivity(unchecked) private var report: DispatchReport
  /// 2·i while subscription i's dormant module wakes (not timed: the kernel bounds its hooks),
  /// 2·i+1 while its handler runs, 2·i between the handler before it and its own (or its wake).
  private let position = Atomic<Int>(0)
  private let watch: Locked<Watch>

  private struct Watch {
    /// The poster, resumed with the report.
    var poster: CheckedContinuation<DispatchReport, Never>?
    /// The watch's next check, from when it is scheduled until it ran.
    var token: UInt64?
    var task: Task<Void, Never>?
    /// Where `task` runs, and so the watch's checks: nil for Swift's pool.
    var executor: (any TaskExecutor)?
    /// Whether the poster's task was cancelled: so is every task that runs handlers.
    var cancelled = false
    /// Seconds between checks: a sixteenth of the shortest limit seen.
    var interval: Double
    /// The position the last check saw, the seconds counted against it, and when that check ran.
    var seen = EventLane.abandoned
    var counted = 0.0
    var checkedAt: UInt64 = 0
    /// When the watch gave up on each handler it abandoned, by index.
    var abandonedAt: [Int: UInt64] = [:]
    var done = false
  }

  private init(
    _ subscriptions: [EventBus.Subscription], _ event: Event, on bus: EventBus, shortest: Double
  ) {
    self.subscriptions = subscriptions
    self.event = event
    self.bus = bus
    self.priority = Task.currentPriority
    self.report = DispatchReport(event: event.name)
    self.watch = Locked(Watch(interval: Self.interval(shortest)))
  }

  /// Runs `subscriptions` and returns the report; `shortest` is the shortest of their limits
  /// (a dormant module's may be shorter: the watch checks more often once it meets one).
  static func run(
    _ subscriptions: [EventBus.Subscription], _ event: Event, on bus: EventBus, shortest: Double
  ) async -> DispatchReport {
    let lane = EventLane(subscriptions, event, on: bus, shortest: shortest)
    // The handlers see the poster's cancellation, as when they ran on its task.
    return await withTaskCancellationHandler {
      await withCheckedContinuation { poster in
        lane.watch.withLock { $0.poster = poster }
        lane.launch(from: 0)
      }
    } onCancel: {
      lane.watch.withLock { watch in
        watch.cancelled = true
        return watch.task
      }?.cancel()
    }
  }

  /// Seconds between checks for a shortest limit of `seconds`.
  private static func interval(_ seconds: Double) -> Double { max(0.001, seconds / 16) }

  /// Runs the handlers from `index` on in a new task, or ends the post when none is left. The
  /// first task runs on Swift's pool, as the poster did (a task executor would cost every
  /// handler call a lookup of it); after a handler was abandoned, the rest run on the bus's
  /// executor, in case the abandoned one blocks a thread of the pool.
  private func launch(from index: Int) {
    guard index < subscriptions.count else { return finish() }
    position.store(2 * index, ordering: .releasing)
    let executor = index == 0 ? nil : bus.storage.executor
    let task =
      index == 0
      ? Task { [self] in await drive(from: index) }
      : Task(executorPreference: executor) { [self] in await drive(from: index) }
    let cancelled = watch.withLock { watch in
      watch.task = task
      watch.executor = executor
      if watch.token == nil, !watch.done { arm(&watch) }
      return watch.cancelled
    }
    if cancelled { task.cancel() }
  }

  private func drive(from start: Int) async {
    var index = start
    while index < subscriptions.count {
      let subscription = subscriptions[index]
      var position = 2 * index
      let result: Result<EventOutcome, any Error>
      do {
        switch subscription.callee {
        case .handler(let handler, _):
          position += 1
          self.position.store(position, ordering: .releasing)
          result = .success(try await handler(event))
        case .placeholder(let placeholder):
          try await placeholder.wake(for: event)
          position += 1
          self.position.store(position, ordering: .releasing)
          result = .success(try await bus.deliver(event, to: subscription.owner))
        }
      } catch {
        result = .failure(error)
      }
      index += 1
      guard
        self.position.compareExchange(
          expected: position, desired: 2 * index, ordering: .acquiringAndReleasing
        ).exchanged
      else {  // the watch gave up on this handler and went on without it
        return logLateEnd(of: index - 1, result)
      }
      switch result {
      case .success(let outcome): report.record(outcome, of: subscription.owner)
      case .failure(let error): report.failures.append((subscription.owner, error))
      }
    }
    finish()
  }

  private func finish() {
    let (token, poster) = watch.withLock { watch in
      watch.done = true
      watch.task = nil
      return (watch.token.take(), watch.poster.take())
    }
    if let token { Deadlines.shared.cancel(token) }
    poster?.resume(returning: report)
  }

  /// Schedules the next check; `watch` is locked (its lock is taken before the deadlines' one).
  private func arm(_ watch: inout Watch) {
    watch.token = Deadlines.shared.schedule(after: watch.interval) { [self] in due() }
  }

  /// The check comes due (on the deadlines' thread): it runs where the handlers run, so it
  /// waits for a thread as a handler ready to go on would.
  private func due() {
    let executor = watch.withLock { $0.executor }
    Task(executorPreference: executor, priority: priority) { [self] in check() }
  }

  /// The watch: gives up on the handler in progress when it has counted its limit against it,
  /// otherwise checks again later.
  private func check() {
    let now = DispatchTime.now().uptimeNanoseconds
    let position = self.position.load(ordering: .acquiring)
    let expired = watch.withLock { watch -> Int? in
      watch.token = nil
      guard !watch.done else { return nil }
      let seconds = position % 2 == 1 ? subscriptions[position / 2].seconds : .infinity
      // At most two intervals count: a check later than that waited for a thread, as the
      // handler would have.
      let since = min(Double(now &- watch.checkedAt) / 1e9, 2 * watch.interval)
      watch.checkedAt = now
      if position != watch.seen {
        (watch.seen, watch.counted) = (position, 0)
        watch.interval = min(watch.interval, Self.interval(seconds))
      } else {
        watch.counted += since
        if seconds <= watch.counted,
          self.position.compareExchange(
            expected: position, desired: Self.abandoned, ordering: .acquiringAndReleasing
          ).exchanged
        {
          watch.abandonedAt[position / 2] = now
          return position / 2
        }
      }
      arm(&watch)
      return nil
    }
    if let expired { expire(expired) }
  }

  /// Reports the abandoned handler at `index` and goes on with the next one in a new task.
  private func expire(_ index: Int) {
    let subscription = subscriptions[index]
    watch.withLock { $0.task }?.cancel()
    report.failures.append(
      (
        subscription.owner,
        EventTimeout(module: subscription.owner, event: event.name, seconds: subscription.seconds)
      ))
    launch(from: index + 1)
  }

  /// Logs how the abandoned handler at `index` ended, since its result goes nowhere else.
  private func logLateEnd(of index: Int, _ result: Result<EventOutcome, any Error>) {
    let subscription = subscriptions[index]
    let abandonedAt = watch.withLock { $0.abandonedAt[index] } ?? 0
    let late = Duration.nanoseconds(DispatchTime.now().uptimeNanoseconds &- abandonedAt)
    let handler = "apiary: handler of '\(subscription.owner)' for event '\(event.name)'"
    let after = "\(Profiler.format(late)) after it was abandoned"
    switch result {
    case .success: bus.storage.log("\(handler) finished \(after)")
    case .failure(let error): bus.storage.log("\(handler) threw \(after): \(error)")
    }
  }
}
