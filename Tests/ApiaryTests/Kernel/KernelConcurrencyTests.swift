import Foundation
import Testing

@testable import Apiary

/// Run-time changes that overlap. Each test holds one change inside a module hook with a
/// ``HookGate``, makes the second request arrive (``Kernel/queued(_:)`` says it is waiting), then
/// opens the gate and checks the end state.
@Suite(.timeLimit(.minutes(1))) struct KernelConcurrencyTests {
  private func count(_ entry: String, in journal: String) -> Int {
    Journal.read(journal).filter { $0 == entry }.count
  }

  @Test func twoRemovesOfOneModuleTearItDownOnce() async throws {
    let journal = Journal.new()
    let gate = HookGate()
    let kernel = try Fixture.kernel([
      Fixture.module("plugin", journal: journal, config: gate.config("tearDown"))
    ])
    try await kernel.boot()
    let first = Task { try await kernel.remove("plugin") }
    await gate.arrival()
    let second = Task { try await kernel.remove("plugin") }
    await kernel.queued(1)
    gate.open()
    _ = try await first.value
    // The first remove forgot the module, so the second one, which waited, finds none.
    await #expect {
      try await second.value
    } throws: { error in
      guard case .unknownModule(let unknown)? = (error as? KernelError)?.details else {
        return false
      }
      return unknown == "plugin"
    }
    #expect(count("plugin.tearDown", in: journal) == 1)
    #expect(await kernel.state(of: "plugin") == nil)
    await kernel.shutdown()
    #expect(count("plugin.tearDown", in: journal) == 1)
  }

  @Test func shutdownDuringRemoveTearsEachModuleDownOnceInReverse() async throws {
    let journal = Journal.new()
    let gate = HookGate()
    let kernel = try Fixture.kernel([
      Fixture.module("base", journal: journal),
      Fixture.module("plugin", journal: journal, config: gate.config("tearDown")),
    ])
    try await kernel.boot()
    let removal = Task { try await kernel.remove("plugin") }
    await gate.arrival()
    let shutdown = Task { await kernel.shutdown() }
    await kernel.queued(1)
    gate.open()
    _ = try await removal.value
    await shutdown.value
    #expect(
      Journal.read(journal).filter { $0.hasSuffix("tearDown") } == [
        "plugin.tearDown", "base.tearDown",
      ])
  }

  @Test func shutdownDuringAddStopsItAndTearsTheNewModuleDownFirst() async throws {
    let journal = Journal.new()
    let gate = HookGate()
    let kernel = try Fixture.kernel([Fixture.module("base", journal: journal)])
    try await kernel.boot()
    let add = Task {
      try await kernel.add(
        Fixture.module(
          "plugin", journal: journal, dependencies: ["base"], config: gate.config("start")))
    }
    await gate.arrival()
    let shutdown = Task { await kernel.shutdown() }
    await kernel.queued(1)
    gate.open()
    await #expect {
      try await add.value
    } throws: { error in
      guard case .interrupted(let operation)? = (error as? KernelError)?.details else {
        return false
      }
      return operation == "add a module"
    }
    await shutdown.value
    #expect(!Journal.read(journal).contains("plugin.ready"))
    #expect(
      Journal.read(journal).filter { $0.hasSuffix("tearDown") } == [
        "plugin.tearDown", "base.tearDown",
      ])
    #expect(await kernel.startedModules.isEmpty)
    #expect(kernel.container.bindings.isEmpty)
  }

  /// A list of modules is added in one change: an add waiting behind it, of a module that
  /// depends on the list's first, finds that module already withdrawn when the second failed.
  /// Added one by one, the waiting add ran between the failure and the withdrawal.
  @Test func anAddWaitingBehindAFailedListFindsItsModulesWithdrawn() async throws {
    let journal = Journal.new()
    let gate = HookGate()
    let kernel = try Fixture.kernel([Fixture.module("base", journal: journal)])
    try await kernel.boot()
    var failing = gate.config("setUp")
    failing["fail"] = "setUp"
    let list = Task {
      try await kernel.add([
        Fixture.module("a", journal: journal, dependencies: ["base"]),
        Fixture.module("b", journal: journal, dependencies: ["a"], config: failing),
      ])
    }
    await gate.arrival()
    let dependent = Task {
      try await kernel.add(Fixture.module("c", journal: journal, dependencies: ["a"]))
    }
    await kernel.queued(1)
    gate.open()
    await #expect {
      try await list.value
    } throws: { error in
      guard let failure = error as? AddFailure else { return false }
      return failure.module == "b" && failure.withdrawn == ["a"]
    }
    await #expect {
      try await dependent.value
    } throws: { error in
      guard
        case .dependencyNotRunning(let module, let dependency)? = (error as? KernelError)?.details
      else {
        return false
      }
      return module == "c" && dependency == "a"
    }
    #expect(await kernel.state(of: "a") == nil, "withdrawn, so forgotten")
    #expect(await kernel.state(of: "c") == nil)
    #expect(Journal.read(journal).contains("a.tearDown"))
    await kernel.shutdown()
  }

  @Test func removeOfADependencyWaitsForTheAddAndIsRefused() async throws {
    let journal = Journal.new()
    let gate = HookGate()
    let kernel = try Fixture.kernel([Fixture.module("base", journal: journal)])
    try await kernel.boot()
    let add = Task {
      try await kernel.add(
        Fixture.module(
          "plugin", journal: journal, dependencies: ["base"], config: gate.config("start")))
    }
    await gate.arrival()
    let remove = Task { try await kernel.remove("base") }
    await kernel.queued(1)
    gate.open()
    try await add.value
    await #expect {
      try await remove.value
    } throws: { error in
      guard case .moduleInUse(let module, let dependents, _)? = (error as? KernelError)?.details
      else {
        return false
      }
      return module == "base" && dependents == ["plugin"]
    }
    #expect(await kernel.state(of: "base") == .running)
    #expect(await kernel.state(of: "plugin") == .running)
    await kernel.shutdown()
  }

  @Test func shutdownDuringBootStopsItAndTearsDownWhatStartedInReverse() async throws {
    let journal = Journal.new()
    let gate = HookGate()
    let kernel = try Fixture.kernel([
      Fixture.module("a", journal: journal),
      Fixture.module("b", journal: journal, dependencies: ["a"], config: gate.config("start")),
      Fixture.module("c", journal: journal, dependencies: ["b"]),
    ])
    let boot = Task { try await kernel.boot() }
    await gate.arrival()
    let shutdown = Task { await kernel.shutdown() }
    await kernel.queued(1)
    gate.open()
    await #expect {
      try await boot.value
    } throws: { error in
      guard case .interrupted(let operation)? = (error as? KernelError)?.details else {
        return false
      }
      return operation == "boot"
    }
    await shutdown.value
    let entries = Journal.read(journal)
    #expect(!entries.contains("c.start"))
    #expect(!entries.contains { $0.hasSuffix(".ready") })
    #expect(entries.filter { $0.hasSuffix("tearDown") } == ["b.tearDown", "a.tearDown"])
    #expect(await kernel.startedModules.isEmpty)
    await #expect(throws: KernelError.self) { try await kernel.boot() }
  }

  @Test func addAfterShutdownIsRefusedWithTheState() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([Fixture.module("base", journal: journal)])
    try await kernel.boot()
    await kernel.shutdown()
    await #expect {
      try await kernel.add(Fixture.module("late", journal: journal))
    } throws: { error in
      guard case .wrongState(_, let state)? = (error as? KernelError)?.details else {
        return false
      }
      return state == "stopped"
    }
    await #expect(throws: KernelError.self) { try await kernel.remove("base") }
    #expect(!Journal.read(journal).contains("late.setUp"))
  }

  @Test func startTimeoutsFireWhenModulesBlockMoreThreadsThanThePoolHas() async throws {
    let journal = Journal.new()
    let gate = HookGate()
    defer { gate.open() }
    // More blocking modules than the Swift pool has threads: their hooks block threads of
    // their own, and the kernel still acts on their time limits.
    let blockers = (0..<(ProcessInfo.processInfo.activeProcessorCount + 2)).map { index in
      Fixture.module(
        "blocker\(index)", journal: journal, isAsync: true, isOptional: true, timeout: 0.2,
        config: gate.config("start"))
    }
    let kernel = try Fixture.kernel(blockers + [Fixture.module("ok", journal: journal)])
    try await kernel.boot()
    for blocker in blockers {
      guard case .failed(.start, let reason)? = await kernel.state(of: blocker.name) else {
        Issue.record("\(blocker.name) should have timed out in start")
        continue
      }
      #expect(reason.contains("0.2 s"))
    }
    #expect(await kernel.state(of: "ok") == .running)
    await kernel.shutdown()
  }

  @Test func setUpIsBoundedByTheTimeout() async throws {
    let journal = Journal.new()
    let gate = HookGate()
    defer { gate.open() }
    let kernel = try Fixture.kernel([
      Fixture.module(
        "stuck", journal: journal, isOptional: true, timeout: 0.2,
        config: gate.config("setUp").merging(["handles": "ping"]) { $1 }),
      Fixture.module("after", journal: journal),
    ])
    try await kernel.boot()
    guard case .failed(.setUp, let reason)? = await kernel.state(of: "stuck") else {
      Issue.record("stuck should have timed out in setUp")
      return
    }
    #expect(reason.contains("0.2 s"))
    #expect(await kernel.state(of: "after") == .running)
    await kernel.shutdown()

    let required = try Fixture.kernel([
      Fixture.module("stuck", journal: journal, timeout: 0.2, config: gate.config("setUp"))
    ])
    await #expect {
      try await required.boot()
    } throws: { error in
      guard case .hookFailed("stuck", .setUp, let cause)? = (error as? KernelError)?.details else {
        return false
      }
      return cause is LifecycleTimeout
    }
  }

  @Test func requiredModuleWhoseReadyThrowsFailsTheBoot() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([
      Fixture.module("a", journal: journal),
      Fixture.module("b", journal: journal, config: ["fail": "ready"]),
    ])
    await #expect {
      try await kernel.boot()
    } throws: { error in
      guard case .hookFailed("b", .ready, let cause)? = (error as? KernelError)?.details else {
        return false
      }
      return "\(cause)" == "b refused to ready"
    }
    #expect(Journal.read(journal).suffix(2) == ["b.tearDown", "a.tearDown"])
    #expect(await kernel.startedModules.isEmpty)
  }

  @Test func requiredModuleWhoseReadyTimesOutFailsTheBoot() async throws {
    let journal = Journal.new()
    let gate = HookGate()
    defer { gate.open() }
    let kernel = try Fixture.kernel([
      Fixture.module("slow", journal: journal, timeout: 0.2, config: gate.config("ready"))
    ])
    await #expect {
      try await kernel.boot()
    } throws: { error in
      guard case .hookFailed("slow", .ready, let cause)? = (error as? KernelError)?.details else {
        return false
      }
      return cause is LifecycleTimeout
    }
    #expect(await kernel.startedModules.isEmpty)
  }

  @Test func optionalModuleWhoseReadyFailsIsTornDownWithItsDependents() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([
      Fixture.module("base", journal: journal),
      Fixture.module(
        "flaky", journal: journal, isOptional: true,
        config: ["fail": "ready", "handles": "ping"]),
      Fixture.module("user", journal: journal, dependencies: ["flaky"]),
    ])
    try await kernel.boot()
    #expect(
      await kernel.state(of: "flaky") == .failed(phase: .ready, reason: "flaky refused to ready"))
    #expect(
      await kernel.state(of: "user") == .skipped(reason: "dependency 'flaky' failed in ready"))
    #expect(await kernel.startedModules == ["base"])
    #expect(
      Journal.read(journal).filter { $0.hasSuffix("tearDown") } == [
        "user.tearDown", "flaky.tearDown",
      ])
    #expect(await kernel.events.post("ping").handledBy.isEmpty)
    await kernel.shutdown()
  }
}
