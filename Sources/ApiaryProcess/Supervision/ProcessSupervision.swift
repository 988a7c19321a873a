import ApiaryManifest
import ApiarySupport

/// The supervisors of this host's process-placed modules, by module name: placement starts one
/// per module (``supervise(module:owner:restart:healthCheck:first:relaunch:hung:crashed:)``),
/// the host's commands find them for `:restart` and `:modules`, and ``gaveUp`` tells the host's
/// kernel to mark a module failed.
///
/// ```swift
/// ProcessSupervision.gaveUp = { module, reason in
///   Task { await kernel.markFailed(module, reason: reason) }
/// }
/// try await ProcessSupervision.supervisor(of: "notes")?.restart(grace: .seconds(2))
/// ```
package enum ProcessSupervision {
  /// By module name; `owner` is the module context, so a release never takes another
  /// kernel's supervisor of the same name (tests run kernels side by side); `handover` hands
  /// the supervisor its first child.
  private typealias Entry = (
    owner: ObjectIdentifier, supervisor: Supervisor, handover: Task<Void, Never>
  )
  private static let supervisors = Locked<[String: Entry]>([:])
  private static let gaveUpHandler = Locked<@Sendable (String, String) -> Void>({ _, _ in })

  /// Called with a module's name and the reason when its child will not come back.
  package static var gaveUp: @Sendable (String, String) -> Void {
    get { gaveUpHandler.withLock { $0 } }
    set { gaveUpHandler.withLock { $0 = newValue } }
  }

  package static func supervisor(of module: String) -> Supervisor? {
    supervisors.withLock { $0[module]?.supervisor }
  }

  /// The status of `module`'s child; nil for a module not placed in a process.
  package static func status(of module: String) -> SupervisorStatus? {
    supervisor(of: module)?.status
  }

  /// Supervises `module`'s `first` child (already started and connected); `relaunch` starts and
  /// connects a new one; `hung` (just before the kill) and `crashed` fail the calls in flight.
  /// Crashes, restarts and the end are told on the host's standard error:
  ///
  /// ```text
  /// apiary: module 'notes' crashed: its process 4242 was killed by signal 11 (SIGSEGV)
  /// apiary: restarting 'notes' in 0.5 seconds (restart 1 of 3)
  /// apiary: module 'notes' running again: pid 4250 (restart 1)
  /// ```
  ///
  /// and a restart whose child does not come up, before the next restart or the end:
  /// `apiary: restart 1 of 'notes' failed: module 'notes' (pid 4250): exited with status 7`.
  ///
  /// Both numbers are the child's ``SupervisorStatus/restarts``, as `:modules` shows it; a
  /// `:restart` starts it again, so its new child is announced by the command, not here.
  package static func supervise(
    module: String,
    owner: AnyObject,
    restart: RestartPolicy,
    healthCheck: HealthCheckManifest?,
    first: SupervisedChild,
    relaunch: @escaping @Sendable () async throws -> SupervisedChild,
    hung: @escaping @Sendable (HealthFailure) -> Void,
    crashed: @escaping @Sendable (ChildCrashError) -> Void
  ) {
    let supervisor = Supervisor(
      module: module, restart: restart, healthCheck: healthCheck, launch: relaunch,
      onEvent: { event in
        switch event {
        case .started(let pid, let restarts):
          if restarts > 0 {
            say("module '\(module)' running again: pid \(pid) (restart \(restarts))")
          }
        case .hung(let pid, let failure):
          say("module '\(module)' (pid \(pid)) hung: \(failure); killing it")
          hung(failure)
        case .crashed(let crash):
          say(crash.description)
          crashed(crash)
        case .restarting(let attempt, let delay):
          say("restarting '\(module)' in \(delay) (restart \(attempt) of \(restart.maxRestarts))")
        case .restartFailed(let attempt, let reason):
          say("restart \(attempt) of '\(module)' failed: \(reason)")
        case .gaveUp(let reason):
          gaveUp(module, reason)
        }
      })
    // A module's supervisor is released at its `tearDown`, before the name can be set up again.
    let handover = Task { await supervisor.start(with: first) }
    supervisors.withLock { $0[module] = (ObjectIdentifier(owner), supervisor, handover) }
  }

  /// Stops supervising `module`'s child, which the caller then ends (no restart follows), and
  /// forgets its supervisor.
  package static func release(_ module: String, owner: AnyObject) async {
    await take(module, owner: owner)?.release()
  }

  /// ``release(_:owner:)`` for a caller that cannot wait (``Supervisor/releaseAtOnce()``).
  package static func releaseAtOnce(_ module: String, owner: AnyObject) {
    take(module, owner: owner)?.releaseAtOnce()
  }

  /// The host is ending `module`'s child `pid` for `cause` (``Supervisor/ending(pid:cause:)``):
  /// its end is reported as that cause, not as the signal the host sends it.
  package static func ending(_ module: String, owner: AnyObject, pid: Int32, cause: String) {
    let supervisor = supervisors.withLock { table in
      table[module].flatMap { $0.owner == ObjectIdentifier(owner) ? $0.supervisor : nil }
    }
    supervisor?.ending(pid: pid, cause: cause)
  }

  /// Ends every supervised child (SIGTERM, then SIGKILL after `grace`), no restart following,
  /// and forgets their supervisors: after a failed boot, the children of modules that were set
  /// up but never started, which the kernel does not tear down (it tears down started modules).
  /// Said "apiary: module 'payments' (pid 4242) still running at exit; killed", as if that
  /// module had hung, when another module's `start` had failed.
  /// Each first child is handed over before its supervisor stops: one handed over after would
  /// be ended too, but after this returned, so the host exited first and killed it as stuck.
  package static func stopAll(grace: Duration) async {
    let all = supervisors.withLock { table in
      defer { table = [:] }
      return table.values.map { ($0.supervisor, $0.handover) }
    }
    for (supervisor, handover) in all {
      await handover.value
      await supervisor.stop(grace: grace)
    }
  }

  /// `module`'s first child started its module (`owner`'s `start` hook returned): its end is a
  /// crash its restart policy answers from now on (``Supervisor/moduleStarted()``).
  package static func moduleStarted(_ module: String, owner: AnyObject) async {
    let supervisor = supervisors.withLock { table in
      table[module].flatMap { $0.owner == ObjectIdentifier(owner) ? $0.supervisor : nil }
    }
    await supervisor?.moduleStarted()
  }

  /// Forgets `module`'s supervisor if `owner`'s, and returns it.
  private static func take(_ module: String, owner: AnyObject) -> Supervisor? {
    supervisors.withLock { table -> Supervisor? in
      guard let entry = table[module], entry.owner == ObjectIdentifier(owner) else { return nil }
      table[module] = nil
      return entry.supervisor
    }
  }

  private static func say(_ line: String) {
    StandardError.print("apiary: " + line)
  }
}
