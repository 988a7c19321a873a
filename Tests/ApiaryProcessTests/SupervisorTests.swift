import ApiaryManifest
import ApiarySupport
import Dispatch
import Testing

@testable import ApiaryProcess

#if canImport(Glibc)
  import Glibc
#endif

/// A supervisor over real `/bin/sh` children. Backoff waits go through a recording sleeper and
/// health checks ping without a pause, so the tests wait on events and gates, never on the clock.
@Suite struct SupervisorTests {
  /// Launches the scripts in turn (the last one again when they run out) and counts launches.
  final class Launcher: Sendable {
    let scripts: [String]
    let launches = Locked(0)
    let pings: @Sendable (Int) -> @Sendable (Double) throws -> Void
    /// Waited on by the launch of that number (1 for the first), after opening `launching`.
    let gates: [Int: (launching: Gate, proceed: Gate)]

    init(
      _ scripts: [String], gates: [Int: (Gate, Gate)] = [:],
      pings: @escaping @Sendable (Int) -> @Sendable (Double) throws -> Void = { _ in { _ in } }
    ) {
      self.scripts = scripts
      self.gates = gates.mapValues { (launching: $0.0, proceed: $0.1) }
      self.pings = pings
    }

    var launch: @Sendable () async throws -> SupervisedChild {
      { [self] in
        let number = launches.withLock {
          $0 += 1
          return $0
        }
        if let gate = gates[number] {
          gate.launching.open()
          await gate.proceed.wait()
        }
        let script = scripts[min(number, scripts.count) - 1]
        let process = try ChildProcess.spawn(
          executable: "/bin/sh", arguments: ["-c", script], name: "notes",
          standardError: { _ in })
        return SupervisedChild(process: process, ping: pings(number))
      }
    }
  }

  /// A restart under way is named as such: the status read "restarting, 0 restarts" during
  /// the first one. A `:restart` under way, which starts the count again, names no count.
  @Test func aRestartUnderWayIsNamed() {
    #expect(
      SupervisorStatus(state: .restarting, restarts: 1, lastExit: .exited(3)).description
        == "restarting, restart 1 under way, last exit: exited with status 3")
    #expect(
      SupervisorStatus(state: .restarting, restarts: 0, lastExit: .signaled(SIGTERM)).description
        == "restarting, last exit: killed by signal 15 (SIGTERM)")
    #expect(
      SupervisorStatus(state: .running, pid: 7, restarts: 1).description
        == "running, pid 7, 1 restart")
  }

  /// A child the host ends for a cause of its own (it broke the wire protocol) ends with that
  /// cause: its status says it is ending until it has, and its end is reported as the cause, not
  /// as the host's SIGTERM ("crashed: its process 4242 was killed by signal 15 (SIGTERM)").
  @Test func aChildTheHostEndsForACauseEndsWithThatCause() async throws {
    let log = EventLog()
    let launcher = Launcher(["exec sleep 600"])
    let supervisor = Supervisor(module: "notes", launch: launcher.launch, onEvent: log.handler)
    let child = try await supervisor.start()
    let pid = child.process.pid
    supervisor.ending(pid: pid, cause: "broke the wire protocol (x)")
    #expect(
      supervisor.status.description
        == "ending, pid \(pid), 0 restarts, because it broke the wire protocol (x)")
    child.process.send(SIGTERM)
    await log.wait(until: EventLog.gaveUp)
    let crash = ChildCrashError(
      module: "notes", pid: pid, exit: .signaled(SIGTERM), cause: "broke the wire protocol (x)")
    #expect(
      log.events == [
        .started(pid: pid, restarts: 0), .crashed(crash), .gaveUp(reason: crash.outcome),
      ])
    #expect(
      crash.description
        == "module 'notes' broke the wire protocol (x); its process \(pid) was ended")
    #expect(supervisor.status == SupervisorStatus(state: .failed, lastExit: .signaled(SIGTERM)))
  }

  @Test func crashWithPolicyNeverFailsTheModule() async throws {
    let log = EventLog()
    let launcher = Launcher(["kill -SEGV $$"])
    let supervisor = Supervisor(module: "notes", launch: launcher.launch, onEvent: log.handler)
    let child = try await supervisor.start()
    await log.wait(until: EventLog.gaveUp)
    let crash = ChildCrashError(module: "notes", pid: child.process.pid, exit: .signaled(SIGSEGV))
    #expect(
      log.events == [
        .started(pid: child.process.pid, restarts: 0), .crashed(crash),
        .gaveUp(reason: crash.outcome),
      ])
    #expect(
      crash.description
        == "module 'notes' crashed: its process \(child.process.pid) was killed by signal 11 "
        + "(SIGSEGV)")
    #expect(supervisor.status == SupervisorStatus(state: .failed, lastExit: .signaled(SIGSEGV)))
    await #expect(throws: ModuleUnavailableError.self) {
      try await supervisor.child(waitingAtMost: .seconds(1))
    }
  }

  /// An `on-failure` supervisor of module `notes` handed a first child running `script`, as
  /// placement's `setUp` hands one over; its restarts launch `read line`.
  private func handedOver(_ script: String) async throws -> (
    Supervisor, ChildProcess, EventLog, Launcher
  ) {
    let log = EventLog()
    let launcher = Launcher(["read line"])
    let supervisor = Supervisor(
      module: "notes", restart: RestartPolicy(policy: .onFailure),
      sleep: RecordingSleeper().sleep, launch: launcher.launch, onEvent: log.handler)
    let process = try ChildProcess.spawn(
      executable: "/bin/sh", arguments: ["-c", script], name: "notes", standardError: { _ in })
    await supervisor.start(with: SupervisedChild(process: process, ping: { _ in }))
    return (supervisor, process, log, launcher)
  }

  /// A first child handed over before its module started (placement's `setUp`) that dies is
  /// not restarted, whatever the policy: the module's `start` fails with the crash and releases
  /// the supervisor. The host said "restarting 'notes' in 0.5 seconds (restart 1 of 3)", then
  /// no restart came.
  @Test func aChildThatDiesBeforeItsModuleStartedIsNotRestarted() async throws {
    let (supervisor, process, log, launcher) = try await handedOver("kill -ABRT $$")
    await log.wait(until: { if case .crashed = $0 { true } else { false } })
    await #expect(throws: ModuleUnavailableError.self) {
      try await supervisor.child(waitingAtMost: .seconds(1))
    }
    let crash = ChildCrashError(module: "notes", pid: process.pid, exit: .signaled(SIGABRT))
    #expect(log.events == [.started(pid: process.pid, restarts: 0), .crashed(crash)])
    #expect(launcher.launches.withLock { $0 } == 0)
    #expect(supervisor.status == SupervisorStatus(state: .failed, lastExit: .signaled(SIGABRT)))
  }

  /// Once its module started, the same child's end is a crash its policy restarts.
  @Test func aChildThatDiesAfterItsModuleStartedIsRestarted() async throws {
    let (supervisor, process, log, launcher) = try await handedOver("read line; kill -ABRT $$")
    await supervisor.moduleStarted()
    process.closeInput()
    await log.wait(until: EventLog.started(count: 2))
    #expect(launcher.launches.withLock { $0 } == 1)
    #expect(log.events.contains { if case .restarting(1, _) = $0 { true } else { false } })
    await supervisor.stop(grace: .seconds(3600))
  }

  /// `on-failure` restarts after 1 s, then 2 s, then gives up: three launches, two restarts.
  @Test func onFailureRestartsWithBackoffUntilExhausted() async throws {
    let log = EventLog()
    let sleeper = RecordingSleeper()
    let launcher = Launcher(["exit 3"])
    let supervisor = Supervisor(
      module: "notes",
      restart: RestartPolicy(
        policy: .onFailure, maxRestarts: 2, initialBackoff: 1, maxBackoff: 10),
      sleep: sleeper.sleep, launch: launcher.launch, onEvent: log.handler)
    try await supervisor.start()
    await log.wait(until: EventLog.gaveUp)
    #expect(sleeper.requests.withLock { $0 } == [.seconds(1), .seconds(2)])
    #expect(launcher.launches.withLock { $0 } == 3)
    let restarts = log.events.compactMap { event -> Int? in
      if case .restarting(let attempt, _) = event { return attempt }
      return nil
    }
    #expect(restarts == [1, 2])
    #expect(log.events.filter { if case .crashed = $0 { true } else { false } }.count == 3)
    if case .gaveUp(let reason) = log.events.last {
      #expect(reason.hasSuffix("exited with status 3; gave up after 2 restarts"))
      #expect(reason.hasPrefix("its process "))
    } else {
      Issue.record("last event \(String(describing: log.events.last))")
    }
    #expect(
      supervisor.status == SupervisorStatus(state: .failed, restarts: 2, lastExit: .exited(3)))
  }

  @Test func cleanExitIsNotRestartedOnFailure() async throws {
    let log = EventLog()
    let launcher = Launcher(["exit 0"])
    let supervisor = Supervisor(
      module: "notes", restart: RestartPolicy(policy: .onFailure),
      sleep: RecordingSleeper().sleep, launch: launcher.launch, onEvent: log.handler)
    try await supervisor.start()
    await log.wait(until: EventLog.gaveUp)
    #expect(launcher.launches.withLock { $0 } == 1)
    #expect(supervisor.status.state == .failed)
  }

  /// A crash, one restart, then a healthy child that the host stops: no crash is reported for
  /// the stop.
  @Test func restartedChildRunsUntilStopped() async throws {
    let log = EventLog()
    let launcher = Launcher(["kill -SEGV $$", "read line"])
    let supervisor = Supervisor(
      module: "notes", restart: RestartPolicy(policy: .onFailure),
      sleep: RecordingSleeper().sleep, launch: launcher.launch, onEvent: log.handler)
    let first = try await supervisor.start()
    await log.wait(until: EventLog.started(count: 2))
    let second = try await supervisor.child(waitingAtMost: .seconds(1))
    #expect(second.process.pid != first.process.pid)
    #expect(supervisor.status.state == .running)
    #expect(supervisor.status.restarts == 1)
    await supervisor.stop(grace: .seconds(3600))
    #expect(
      supervisor.status
        == SupervisorStatus(state: .stopped, restarts: 1, lastExit: .signaled(SIGTERM)))
    #expect(log.events.filter { if case .crashed = $0 { true } else { false } }.count == 1)
  }

  /// The first child stops answering pings: the health check reports it, the supervisor kills
  /// it, and restarts it; the second child answers and is kept.
  @Test func hungChildIsKilledAndRestarted() async throws {
    let log = EventLog()
    let answered = Gate()
    let held = DispatchSemaphore(value: 0)
    let secondPings = Locked(0)
    // The first child's ping times out, as a blocking ping to a hung child does.
    let hangs: @Sendable (Double) throws -> Void = { seconds in
      throw CallTimedOut(method: "ping", seconds: seconds)
    }
    // The second child answers its first ping; its next waits until the test ends.
    let answers: @Sendable (Double) throws -> Void = { _ in
      let count = secondPings.withLock {
        $0 += 1
        return $0
      }
      if count == 1 { answered.open() } else { held.wait() }
    }
    let launcher = Launcher(["read line"]) { number in number == 1 ? hangs : answers }
    let supervisor = Supervisor(
      module: "notes", restart: RestartPolicy(policy: .onFailure),
      healthCheck: HealthCheckManifest(interval: 0, timeout: 2), sleep: RecordingSleeper().sleep,
      launch: launcher.launch, onEvent: log.handler)
    let first = try await supervisor.start()
    await log.wait(until: EventLog.started(count: 2))
    await answered.wait()
    let hang = HealthFailure.timedOut(.seconds(2))
    let crash = ChildCrashError(
      module: "notes", pid: first.process.pid, exit: .signaled(SIGKILL), hang: hang)
    #expect(
      Array(log.events.prefix(4)) == [
        .started(pid: first.process.pid, restarts: 0), .hung(pid: first.process.pid, hang),
        .crashed(crash),
        .restarting(attempt: 1, delay: .milliseconds(500)),
      ])
    #expect(crash.description.hasPrefix("module 'notes' hung (no answer to a health check ping"))
    #expect(crash.description.hasSuffix("; its process \(first.process.pid) was killed"))
    #expect(supervisor.status.restarts == 1)
    #expect(supervisor.status.state == .running)
    #expect(log.events.count == 5, "\(log.events)")
    await supervisor.stop(grace: .zero)
    held.signal()
  }

  /// `:restart`: the old child gets SIGTERM, a call arriving meanwhile waits and then gets the
  /// new child.
  @Test func manualRestartMakesCallsWait() async throws {
    let log = EventLog()
    let secondLaunch = (Gate(), Gate())
    let launcher = Launcher(["read line"], gates: [2: secondLaunch])
    let sleeper = RecordingSleeper { _ in try await untilCancelled() }  // the bound never ends
    let supervisor = Supervisor(
      module: "notes", restart: RestartPolicy(policy: .onFailure), sleep: sleeper.sleep,
      launch: launcher.launch, onEvent: log.handler)
    let first = try await supervisor.start()
    let restart = Task { try await supervisor.restart(grace: .seconds(3600)) }
    await secondLaunch.0.wait()
    #expect(supervisor.status.state == .restarting)
    #expect(supervisor.status.lastExit == .signaled(SIGTERM))
    let call = Task { try await supervisor.child(waitingAtMost: .seconds(5)) }
    secondLaunch.1.open()
    let second = try await restart.value
    #expect(try await call.value.process.pid == second.process.pid)
    #expect(second.process.pid != first.process.pid)
    #expect(supervisor.status.restarts == 0)  // `:restart` starts the count again
    #expect(!log.events.contains { if case .crashed = $0 { true } else { false } })
    await supervisor.stop(grace: .zero)
  }

  /// After a `:restart`, a crash is restart 1 in the events (the host's `restarting …` and
  /// `running again …` lines) and in the status (`:modules`) alike, also while it is under way.
  /// The host said "(restart 1 of 3)" for it, then "running again: … (restart 2)", and
  /// `:modules` "restart 2 under way", then "2 restarts": the status counted the `:restart`.
  @Test func aCrashAfterACommandedRestartIsRestartOneEverywhere() async throws {
    let log = EventLog()
    let thirdLaunch = (Gate(), Gate())
    let launcher = Launcher(
      ["read line", "read line; kill -SEGV $$", "read line"], gates: [3: thirdLaunch])
    let supervisor = Supervisor(
      module: "notes", restart: RestartPolicy(policy: .onFailure),
      sleep: RecordingSleeper().sleep, launch: launcher.launch, onEvent: log.handler)
    let first = try await supervisor.start()
    let second = try await supervisor.restart(grace: .seconds(3600))
    #expect(
      supervisor.status.description.hasSuffix(
        ", 0 restarts, last exit: killed by signal 15 (SIGTERM)"))
    second.process.closeInput()
    await thirdLaunch.0.wait()
    #expect(
      supervisor.status.description
        == "restarting, restart 1 under way, last exit: killed by signal 11 (SIGSEGV)")
    thirdLaunch.1.open()
    await log.wait(until: EventLog.started(count: 3))
    let third = try await supervisor.child(waitingAtMost: .seconds(1))
    let crash = ChildCrashError(module: "notes", pid: second.process.pid, exit: .signaled(SIGSEGV))
    #expect(
      log.events == [
        .started(pid: first.process.pid, restarts: 0),
        .started(pid: second.process.pid, restarts: 0), .crashed(crash),
        .restarting(attempt: 1, delay: .milliseconds(500)),
        .started(pid: third.process.pid, restarts: 1),
      ])
    #expect(
      supervisor.status.description
        == "running, pid \(third.process.pid), 1 restart, last exit: killed by signal 11 (SIGSEGV)")
    await supervisor.stop(grace: .zero)
  }

  /// A restart whose child does not come up still counts: the next is restart 2, in the events
  /// and the status alike, and `maxRestarts` bounds them all.
  @Test func aRestartThatFailsToStartCounts() async throws {
    let log = EventLog()
    let launcher = Launcher(["read line; kill -SEGV $$", "read line"])
    let calls = Locked(0)
    let failing: @Sendable () async throws -> SupervisedChild = {
      let call = calls.withLock {
        $0 += 1
        return $0
      }
      guard call != 2 else {
        throw ChildSpawnError(executable: "/bin/sh", step: "posix_spawn", errno: ENOENT)
      }
      return try await launcher.launch()
    }
    let supervisor = Supervisor(
      module: "notes", restart: RestartPolicy(policy: .onFailure, maxRestarts: 2),
      sleep: RecordingSleeper().sleep, launch: failing, onEvent: log.handler)
    let first = try await supervisor.start()
    first.process.closeInput()
    await log.wait(until: EventLog.started(count: 2))
    let attempts = log.events.compactMap { event -> Int? in
      if case .restarting(let attempt, _) = event { return attempt }
      return nil
    }
    #expect(attempts == [1, 2])
    // The failed restart is told, with why, before the next is scheduled.
    let failures = log.events.compactMap { event -> String? in
      if case .restartFailed(let attempt, let reason) = event { return "\(attempt): \(reason)" }
      return nil
    }
    #expect(
      failures == [
        "1: \(ChildSpawnError(executable: "/bin/sh", step: "posix_spawn", errno: ENOENT))"
      ])
    #expect(log.events.last.map { if case .started(_, 2) = $0 { true } else { false } } == true)
    #expect(supervisor.status.restarts == 2)
    await supervisor.stop(grace: .zero)
  }

  /// A call that waits longer than its bound for a restarting child fails with a typed error.
  @Test func callPastItsBoundFails() async throws {
    let secondLaunch = (Gate(), Gate())
    let launcher = Launcher(["read line"], gates: [2: secondLaunch])
    let supervisor = Supervisor(
      module: "notes", sleep: RecordingSleeper().sleep, launch: launcher.launch)
    try await supervisor.start()
    let restart = Task { try await supervisor.restart(grace: .zero) }
    await secondLaunch.0.wait()
    do {
      _ = try await supervisor.child(waitingAtMost: .seconds(5))
      Issue.record("expected ModuleUnavailableError")
    } catch let error as ModuleUnavailableError {
      #expect(
        error.description == "module 'notes' is restarting: no child answered within 5.0 seconds")
    }
    secondLaunch.1.open()
    _ = try await restart.value
    await supervisor.stop(grace: .zero)
  }

  /// Stopping during a backoff cancels the restart: no second launch.
  @Test func stopDuringBackoffCancelsTheRestart() async throws {
    let log = EventLog()
    let launcher = Launcher(["exit 1"])
    let supervisor = Supervisor(
      module: "notes", restart: RestartPolicy(policy: .onFailure),
      sleep: RecordingSleeper { _ in try await untilCancelled() }.sleep,
      launch: launcher.launch, onEvent: log.handler)
    try await supervisor.start()
    await log.wait(until: EventLog.restarting)
    await supervisor.stop(grace: .zero)
    #expect(supervisor.status.state == .stopped)
    #expect(launcher.launches.withLock { $0 } == 1)
  }
}
