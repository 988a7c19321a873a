import ApiaryManifest
import ApiarySupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A running child as the placement code hands it to a ``Supervisor``: the process, after its
/// handshake, and how to ping it without Swift's pool, for its ``HealthWatch``: `ping` gets the
/// timeout in seconds and throws ``CallTimedOut`` past it.
package struct SupervisedChild: Sendable {
  package var process: ChildProcess
  package var ping: @Sendable (Double) throws -> Void

  package init(process: ChildProcess, ping: @escaping @Sendable (Double) throws -> Void) {
    self.process = process
    self.ping = ping
  }
}

/// Owns the life of one module's child process: starts it through the placement code's
/// `launch` closure (spawn and handshake), watches its exit, runs its health check (a
/// ``HealthWatch``, off Swift's pool), restarts it per its ``RestartPolicy`` with ``Backoff``,
/// and reports each step as a ``SupervisorEvent``.
///
/// An end the host did not ask for is a crash: the handler hears ``SupervisorEvent/crashed(_:)``
/// (fail the calls in flight), then either ``SupervisorEvent/restarting(attempt:delay:)`` or
/// ``SupervisorEvent/gaveUp(reason:)`` (mark the module failed). `on-failure` restarts after a
/// signal, a non-zero status or a failed health check, at most `maxRestarts` times;
/// ``restart(grace:)`` (`:restart`) starts the count again. The count is
/// ``SupervisorStatus/restarts``, which the events carry too, so `:modules` and the host's
/// `restarting …`/`running again …` lines agree.
///
/// ```swift
/// let supervisor = Supervisor(module: "notes", restart: manifest.restart,
///                             healthCheck: manifest.healthCheck, launch: spawnAndHandshake,
///                             onEvent: { event in placement.handle(event) })
/// let child = try await supervisor.start()
/// let current = try await supervisor.child(waitingAtMost: .seconds(5))  // waits out a restart
/// await supervisor.stop(grace: .seconds(2))
/// ```
package actor Supervisor {
  package nonisolated let module: String
  private let restartPolicy: RestartPolicy
  private let healthCheck: HealthCheckManifest?
  private let launch: @Sendable () async throws -> SupervisedChild
  private let onEvent: @Sendable (SupervisorEvent) -> Void
  private let sleep: @Sendable (Duration) async throws -> Void
  private let published = Locked(SupervisorStatus(state: .starting))

  private var current: SupervisedChild?
  /// Bumped whenever the running child changes or the host takes over its end, so a stale
  /// exit, hang or scheduled restart recognises itself and does nothing.
  private var generation = 0
  /// Whether the child has started its module. Until then (a first child handed over by
  /// ``start(with:)``, which the module's `start` has not run in yet) the child's end fails the
  /// hook that needs it, which says why: it is no crash to restart, and the host is not told the
  /// module failed (``SupervisorEvent/gaveUp(reason:)``), since the kernel hears it from the
  /// hook. ``start()`` and ``moduleStarted()`` set it.
  private var moduleIsUp = false
  /// The last health check failure and the generation of its child; set off the actor by a
  /// ``HealthWatch``.
  private let hang = Locked<(generation: Int, failure: HealthFailure)?>(nil)
  /// Why the host is ending the child of this pid of its own accord (``ending(pid:cause:)``);
  /// set off the actor, by placement.
  private let cause = Locked<(pid: Int32, cause: String)?>(nil)
  private var tasks: [Task<Void, Never>] = []
  private var watch: HealthWatch?
  private var waiters: [Int: CheckedContinuation<SupervisedChild, any Error>] = [:]
  private var nextWaiter = 0

  package init(
    module: String,
    restart: RestartPolicy = .never,
    healthCheck: HealthCheckManifest? = nil,
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
    launch: @escaping @Sendable () async throws -> SupervisedChild,
    onEvent: @escaping @Sendable (SupervisorEvent) -> Void = { _ in }
  ) {
    self.module = module
    self.restartPolicy = restart
    self.healthCheck = healthCheck
    self.sleep = sleep
    self.launch = launch
    self.onEvent = onEvent
  }

  /// The child's state, pid, restart count and last exit, readable from any thread.
  package nonisolated var status: SupervisorStatus { published.withLock { $0 } }

  private nonisolated func update(_ change: (inout SupervisorStatus) -> Void) {
    published.withLock { change(&$0) }
  }

  // MARK: Commands

  /// Starts the first child; its error (spawn or handshake) is the module's start failure.
  @discardableResult
  package func start() async throws -> SupervisedChild {
    generation += 1
    let expected = generation
    moduleIsUp = true  // `launch` starts the child's module too
    update { $0.state = .starting }
    return try await launch(expected, failing: "it did not start")
  }

  /// The first child's module started (its `start` hook returned): from now on its end is a
  /// crash that the restart policy answers.
  package func moduleStarted() {
    moduleIsUp = true
  }

  /// Supervises a first child the caller started itself (a module's synchronous `setUp` does);
  /// a child handed over after ``stop(grace:)`` is ended instead.
  package func start(with child: SupervisedChild) async {
    guard status.state == .starting, current == nil else {
      _ = await discard(child)
      return
    }
    adopt(child)
  }

  /// Ends the child for good (SIGTERM, then SIGKILL after `grace`); no restart follows, and
  /// calls waiting for it fail.
  package func stop(grace: Duration) async {
    generation += 1
    endTasks()
    update { $0.state = .stopped }
    failWaiters(reason: "it was stopped")
    guard let child = current else { return }
    current = nil
    let exit = await child.process.terminate(grace: grace)
    update {
      $0.pid = nil
      $0.lastExit = exit
      $0.ending = nil
    }
  }

  /// Stops supervising without ending the child, for a caller that ends it itself (placement
  /// says goodbye over the wire first); no restart follows, and calls waiting for it fail.
  package func release() {
    generation += 1
    endTasks()
    current = nil
    update {
      $0.state = .stopped
      $0.pid = nil
      $0.ending = nil
    }
    failWaiters(reason: "it was stopped")
  }

  /// ``release()`` for a caller that cannot wait (a hook the kernel abandoned, about to end the
  /// child): the child's end is no crash from now on, whenever ``release()`` runs.
  package nonisolated func releaseAtOnce() {
    published.withLock { $0.state = .stopped }
    Task { await release() }
  }

  /// `:restart`: ends the running child (SIGTERM, then SIGKILL after `grace`) and starts a new
  /// one — which loads the plugin library as it is now. Starts the count of automatic restarts
  /// again: ``SupervisorStatus/restarts`` is 0 from now. The host's calls to the module do not
  /// wait for it: they fail at once until the new child runs (`ProcessModule`); a caller that
  /// would rather wait uses ``child(waitingAtMost:)``.
  @discardableResult
  package func restart(grace: Duration) async throws -> SupervisedChild {
    generation += 1
    let expected = generation
    endTasks()
    update {
      $0.state = .restarting
      $0.restarts = 0
    }
    if let child = current {
      current = nil
      let exit = await child.process.terminate(grace: grace)
      update {
        $0.pid = nil
        $0.lastExit = exit
        $0.ending = nil
      }
    }
    guard generation == expected else { throw unavailable("it was stopped during the restart") }
    return try await launch(expected, failing: "it did not start again")
  }

  /// Launches and adopts the child of generation `expected`. When it fails and no stop or
  /// restart came meanwhile, the module fails with `failing` and the error.
  private func launch(_ expected: Int, failing: String) async throws -> SupervisedChild {
    do {
      let child = try await launch()
      guard generation == expected else { throw await discard(child) }
      adopt(child)
      return child
    } catch {
      if generation == expected { fail(reason: "\(failing): \(error)") }
      throw error
    }
  }

  /// The running child: at once while running; while starting or restarting, the next child,
  /// waiting at most `bound`; otherwise (and past the bound) a ``ModuleUnavailableError``. Only
  /// the tests call it today: the host's calls take the module's current link and fail at once
  /// while there is none (`module 'search': its child process is restarting, …`).
  package func child(waitingAtMost bound: Duration) async throws -> SupervisedChild {
    if let current { return current }
    let state = status.state
    guard state == .starting || state == .restarting else {
      throw unavailable("it is not running")
    }
    nextWaiter += 1
    let id = nextWaiter
    let timer = Task { [sleep] in
      guard (try? await sleep(bound)) != nil else { return }
      self.expireWaiter(id, after: bound)
    }
    defer { timer.cancel() }
    return try await withCheckedThrowingContinuation { waiters[id] = $0 }
  }

  /// The host is ending the child `pid` for `cause` (`broke the wire protocol (…)`), not on a
  /// command: until it has ended, its status says so, and its end is that cause (a failure),
  /// not the signal the host sends it. Call before signalling it.
  package nonisolated func ending(pid: Int32, cause: String) {
    self.cause.withLock { $0 = (pid, cause) }
    update { status in
      if status.pid == pid, status.state == .running { status.ending = cause }
    }
  }

  // MARK: The child's life

  private func adopt(_ child: SupervisedChild) {
    generation += 1
    let expected = generation
    current = child
    update {
      $0.state = .running
      $0.pid = child.process.pid
      $0.ending = nil
    }
    onEvent(.started(pid: child.process.pid, restarts: status.restarts))
    for waiter in waiters.values { waiter.resume(returning: child) }
    waiters = [:]
    tasks.append(
      Task {
        let exit = await child.process.exit()
        self.ended(expected, exit: exit)
      })
    if let healthCheck {
      watch = HealthWatch.start(
        interval: .manifestSeconds(healthCheck.interval),
        timeout: .manifestSeconds(healthCheck.timeout), ping: child.ping
      ) { [self] failure in hung(expected, failure, child) }
    }
  }

  /// The child of `expected` did not pass its health check: kill it. Called on its
  /// ``HealthWatch``'s thread, which the watch's cancellation (``endTasks()``) keeps from
  /// calling once that child is no longer the running one.
  private nonisolated func hung(
    _ expected: Int, _ failure: HealthFailure, _ child: SupervisedChild
  ) {
    guard status.state != .stopped else { return }
    hang.withLock { $0 = (expected, failure) }
    onEvent(.hung(pid: child.process.pid, failure))
    child.process.send(SIGKILL)
  }

  private func ended(_ expected: Int, exit: ChildExit) {
    guard generation == expected, status.state != .stopped, let child = current else { return }
    current = nil
    endTasks()
    let hangFailure = hang.withLock { hang in
      defer { hang = nil }
      return hang?.generation == expected ? hang?.failure : nil
    }
    let cause = cause.withLock { cause in
      defer { cause = nil }
      return cause?.pid == child.process.pid ? cause?.cause : nil
    }
    update {
      $0.pid = nil
      $0.lastExit = exit
      $0.ending = nil
    }
    let crash = ChildCrashError(
      module: module, pid: child.process.pid, exit: exit, hang: hangFailure, cause: cause)
    onEvent(.crashed(crash))
    let failed = !exit.isClean || hangFailure != nil || cause != nil
    guard moduleIsUp else {
      // Said "restarting 'notes' in 0.5 seconds (restart 1 of 3)", then no restart came: the
      // module's `start` failed with the crash and released its supervisor.
      generation += 1
      update { $0.state = .failed }
      failWaiters(reason: crash.outcome)
      return
    }
    guard restartPolicy.policy == .onFailure, failed else {
      fail(reason: crash.outcome)
      return
    }
    scheduleRestart(after: crash.outcome)
  }

  /// Counts a restart and starts it after the backoff, or gives up when the restarts are used
  /// up.
  private func scheduleRestart(after reason: String) {
    let done = status.restarts
    guard done < restartPolicy.maxRestarts else {
      fail(reason: "\(reason); gave up after \(done) restart\(done == 1 ? "" : "s")")
      return
    }
    let attempt = done + 1
    let delay = Backoff(restartPolicy).delay(beforeRestart: attempt)
    generation += 1
    let expected = generation
    update {
      $0.state = .restarting
      $0.restarts = attempt
    }
    onEvent(.restarting(attempt: attempt, delay: delay))
    tasks.append(
      Task { [sleep] in
        guard (try? await sleep(delay)) != nil else { return }
        await self.relaunch(expected)
      })
  }

  private func relaunch(_ expected: Int) async {
    guard generation == expected else { return }
    tasks = []
    do {
      let child = try await launch()
      guard generation == expected else {
        _ = await discard(child)
        return
      }
      adopt(child)
    } catch {
      guard generation == expected else { return }
      onEvent(.restartFailed(attempt: status.restarts, reason: "\(error)"))
      scheduleRestart(after: "it did not start again: \(error)")
    }
  }

  // MARK: Helpers

  private func fail(reason: String) {
    generation += 1
    update { $0.state = .failed }
    failWaiters(reason: reason)
    onEvent(.gaveUp(reason: reason))
  }

  private func endTasks() {
    for task in tasks { task.cancel() }
    tasks = []
    watch?.cancel()
    watch = nil
  }

  private func failWaiters(reason: String) {
    let error = unavailable(reason)
    for waiter in waiters.values { waiter.resume(throwing: error) }
    waiters = [:]
  }

  private func expireWaiter(_ id: Int, after bound: Duration) {
    waiters.removeValue(forKey: id)?.resume(
      throwing: unavailable("no child answered within \(bound)"))
  }

  private func unavailable(_ reason: String) -> ModuleUnavailableError {
    ModuleUnavailableError(module: module, state: status.state, reason: reason)
  }

  /// Kills a child that started after the host stopped wanting it; returns why it was refused.
  private func discard(_ child: SupervisedChild) async -> ModuleUnavailableError {
    await child.process.terminate(grace: .zero)
    return unavailable("it was stopped while starting")
  }
}
