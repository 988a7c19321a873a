import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryLifecycle

@Suite struct RuntimeModuleTests {
  @Test func addRunsTheWholeLifecycleAndRemoveUndoesIt() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([Fixture.module("base", journal: journal)])
    try await kernel.boot()
    try await kernel.add(
      Fixture.module(
        "plugin", journal: journal, dependencies: ["base"], config: ["handles": "ping"]))
    #expect(await kernel.state(of: "plugin") == .running)
    #expect(await kernel.events.post("ping").handledBy == ["plugin"])

    await #expect(throws: KernelError.self) { try await kernel.remove("base") }
    try await kernel.remove("plugin")
    #expect(await kernel.state(of: "plugin") == nil)
    #expect(await kernel.events.post("ping").handledBy.isEmpty)
    #expect(
      Journal.read(journal).suffix(4) == [
        "plugin.setUp", "plugin.start", "plugin.ready", "plugin.tearDown",
      ])
    await kernel.shutdown()
  }

  /// A removed module is forgotten, a planned one as an added one: the kernel's listing, its
  /// state and its manifest are gone, removing it again names no module, and the name can be
  /// added again. It stayed listed as `stopped`, and a second remove said it removed it again.
  @Test func aRemovedModuleIsNoLongerListed() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([
      Fixture.module("base", journal: journal), Fixture.module("planned", journal: journal),
    ])
    try await kernel.boot()
    try await kernel.add(Fixture.module("added", journal: journal, dependencies: ["base"]))
    try await kernel.remove("added")
    try await kernel.remove("planned")
    #expect(await kernel.moduleStates.map(\.name) == ["base"])
    #expect(await kernel.startedModules == ["base"])
    for name in ["added", "planned"] {
      #expect(await kernel.state(of: name) == nil)
      #expect(await kernel.manifest(of: name) == nil)
      await #expect {
        try await kernel.remove(name)
      } throws: { error in
        guard case .unknownModule(let unknown)? = (error as? KernelError)?.details else {
          return false
        }
        return unknown == name
      }
    }
    try await kernel.add(Fixture.module("added", journal: journal, dependencies: ["base"]))
    #expect(await kernel.moduleStates.map(\.name) == ["base", "added"])
    #expect(await kernel.manifest(of: "added")?.dependencies == ["base"])
    await kernel.shutdown()
  }

  @Test func addRefusesUnknownDependenciesDuplicatesAndFailures() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([Fixture.module("base", journal: journal)])
    await #expect(throws: KernelError.self) {
      try await kernel.add(Fixture.module("early", journal: journal))
    }
    try await kernel.boot()
    await #expect(throws: KernelError.self) {
      try await kernel.add(Fixture.module("x", journal: journal, dependencies: ["missing"]))
    }
    await #expect(throws: KernelError.self) {
      try await kernel.add(Fixture.module("base", journal: journal))
    }
    await #expect(throws: KernelError.self) {
      try await kernel.add(
        Fixture.module(
          "broken", journal: journal, isOptional: true,
          config: ["fail": "start", "handles": "ping"]))
    }
    #expect(await kernel.events.post("ping").handledBy.isEmpty)
    #expect(await kernel.state(of: "base") == .running)
    await #expect(throws: KernelError.self) { try await kernel.remove("nobody") }
    await kernel.shutdown()
  }

  @Test func aFailedAddLeavesNothingAndTheNameCanBeAddedAgain() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([Fixture.module("base", journal: journal)])
    try await kernel.boot()
    await #expect(throws: KernelError.self) {
      try await kernel.add(
        Fixture.module("plugin", journal: journal, config: ["fail": "ready", "handles": "ping"]))
    }
    #expect(await kernel.state(of: "plugin") == nil)
    #expect(Journal.read(journal).last == "plugin.tearDown")
    #expect(await kernel.events.post("ping").handledBy.isEmpty)
    try await kernel.add(Fixture.module("plugin", journal: journal, config: ["handles": "ping"]))
    #expect(await kernel.state(of: "plugin") == .running)
    #expect(await kernel.events.post("ping").handledBy == ["plugin"])
    await kernel.shutdown()
  }

  @Test func interceptorsGoWithTheModuleThatInstalledThem() async throws {
    let journal = Journal.new()
    var base = Fixture.module("base", journal: journal)
    base.targets = [TargetManifest(name: "calc", type: "Test.Calc", actions: [.init(name: "id")])]
    let kernel = try Fixture.kernel([
      base,
      Fixture.module(
        "failing", journal: journal, isOptional: true,
        config: ["intercepts": true, "fail": "start"]),
    ])
    try await kernel.boot()
    try await kernel.mediator.perform(target: "calc", action: "id")
    try await kernel.add(Fixture.module("watcher", journal: journal, config: ["intercepts": true]))
    try await kernel.mediator.perform(target: "calc", action: "id")
    try await kernel.remove("watcher")
    try await kernel.mediator.perform(target: "calc", action: "id")
    #expect(Journal.read(journal).filter { $0.contains(" saw ") } == ["watcher saw id"])
    await kernel.shutdown()
  }

  @Test func addedModulesTakeTheirLevelAndPriorityPlaceInEventDispatch() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([
      Fixture.module("core", journal: journal, level: .basic, config: ["handles": "ping"]),
      Fixture.module("app", journal: journal, config: ["handles": "ping"]),
    ])
    try await kernel.boot()
    try await kernel.add(
      Fixture.module("urgent", journal: journal, priority: 10, config: ["handles": "ping"]))
    try await kernel.add(
      Fixture.module(
        "early", journal: journal, level: .basic, priority: 5, config: ["handles": "ping"]))
    try await kernel.add(
      Fixture.module(
        "needsApp", journal: journal, priority: 99, dependencies: ["app"],
        config: ["handles": "ping"]))
    #expect(
      await kernel.events.post("ping").handledBy == ["early", "core", "urgent", "app", "needsApp"])
    #expect(
      await kernel.moduleStates.map(\.name) == ["early", "core", "urgent", "app", "needsApp"])
    await kernel.shutdown()
  }

  /// `restart(_:)` of a module that has not failed is refused naming the module's state and
  /// what to do; it said "cannot restart module 'base' while the kernel is running", blaming
  /// the kernel, which was in the state the operation needs.
  @Test func restartingAModuleThatHasNotFailedSaysItsStateAndWhatToDo() async throws {
    let journal = Journal.new()
    let base = Fixture.module("base", journal: journal)
    let extra = Fixture.module("extra", journal: journal)
    let kernel = try Fixture.kernel([base, extra])
    try await kernel.boot()
    try await kernel.remove("extra")
    await #expect {
      try await kernel.restart(base)
    } throws: { error in
      guard let error = error as? KernelError else { return false }
      #expect(
        error.description
          == "cannot restart module 'base': it is running, and only a module that failed is "
          + "restarted; to start it anew, remove it and add it again")
      return error.code == .wrongState
    }
    // A removed module is forgotten: restarting it names no module.
    await #expect {
      try await kernel.restart(extra)
    } throws: { error in
      (error as? KernelError)?.description == "no module named 'extra'"
    }
    #expect(await kernel.state(of: "base") == .running)
    #expect(Journal.read(journal).filter { $0.hasPrefix("base.") }.count == 3, "not restarted")
    await kernel.shutdown()
  }
}

/// A module whose child process ended for good is marked failed while the application runs.
@Suite struct MarkFailedTests {
  @Test func theModuleFailsItsDependentsAreSkippedAndTheRestRunsOn() async throws {
    let journal = Journal.new()
    let child = Fixture.module("child", journal: journal, dependencies: ["base"])
    let kernel = try Fixture.kernel([
      Fixture.module("base", journal: journal),
      child,
      Fixture.module("user", journal: journal, dependencies: ["child"]),
      Fixture.module("other", journal: journal, config: ["handles": "ping"]),
    ])
    try await kernel.boot()
    await kernel.markFailed("child", reason: "its process 42 was killed by signal 11 (SIGSEGV)")
    let state = await kernel.state(of: "child")
    #expect(
      state == .failedWhileRunning(reason: "its process 42 was killed by signal 11 (SIGSEGV)"))
    // Its ready ran fine long before: the state does not blame it.
    #expect(
      state?.description
        == "failed while running: its process 42 was killed by signal 11 (SIGSEGV)")
    #expect(await kernel.state(of: "user") == .skipped(reason: "dependency 'child' failed"))
    #expect(await kernel.state(of: "base") == .running)
    #expect(await kernel.state(of: "other") == .running)
    #expect(await kernel.events.post("ping").handledBy == ["other"])
    #expect(Journal.read(journal).suffix(2) == ["user.tearDown", "child.tearDown"])
    // Only a running module can fail; a second report changes nothing.
    await kernel.markFailed("child", reason: "again")
    #expect(await kernel.state(of: "user") == .skipped(reason: "dependency 'child' failed"))
    // `:restart` of such a module loads it again.
    try await kernel.remove("child")
    try await kernel.add(child)
    #expect(await kernel.state(of: "child") == .running)
    await kernel.shutdown()
    #expect(Journal.read(journal).suffix(2) == ["other.tearDown", "base.tearDown"])
  }
}
