import Foundation
import Testing

@testable import Apiary
@testable import ApiaryKernel

/// `"activation": "lazy"` and `"background"`: each trigger, dependencies, failures, shutdown.
@Suite(.timeLimit(.minutes(1))) struct LazyActivationTests {
  @Test func aModuleNeverTriggeredIsNeverSetUpAndCostsNothingAtShutdown() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      Fixture.module("base", journal: journal),
      LazyFixture.module("lazy", journal: journal, targets: [LazyFixture.calc]),
    ])
    try await kernel.boot()
    #expect(await kernel.state(of: "lazy") == .dormant)
    #expect(kernel.mediator.hasTarget("calc"))
    await kernel.shutdown()
    #expect(LazyFixture.hooks("lazy", in: journal).isEmpty)
    #expect(LazyFixture.hooks("base", in: journal) == ["setUp", "start", "ready", "tearDown"])
    #expect(!kernel.mediator.hasTarget("calc"))
  }

  @Test func theFirstLocalCallWakesTheModuleThenRuns() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      LazyFixture.module("lazy", journal: journal, targets: [LazyFixture.calc])
    ])
    kernel.profiler.isRecording = true
    try await kernel.boot()
    #expect(try LazyFixture.add(kernel.mediator, 1, 2) == 3)
    #expect(await kernel.state(of: "lazy") == .running)
    #expect(try LazyFixture.add(kernel.mediator, 1, 1) == 2)
    #expect(LazyFixture.hooks("lazy", in: journal) == ["setUp", "start", "ready"])
    let woken = kernel.profiler.activations
    #expect(woken.map(\.module) == ["lazy"])
    #expect(woken.first?.trigger == "call to target 'calc'")
    #expect(woken.first?.succeeded == true)
    await kernel.shutdown()
    #expect(LazyFixture.hooks("lazy", in: journal).last == "tearDown")
  }

  @Test func aModuleWithoutHooksWakesWithItsServicesBoundAndNoHookRun() async throws {
    let journal = Journal.new()
    var manifest = LazyFixture.module(
      "quiet", journal: journal, services: [LazyFixture.greeter], targets: [LazyFixture.calc])
    manifest.type = "Test.Hookless"
    let kernel = try LazyFixture.kernel([manifest])
    kernel.profiler.isRecording = true
    try await kernel.boot()
    #expect(try LazyFixture.add(kernel.mediator, 1, 2) == 3)
    #expect(await kernel.state(of: "quiet") == .running)
    #expect(try kernel.container.resolve((any LazyGreeter).self).greeting == "hello")
    #expect(kernel.container.bindings.allSatisfy { !$0.kind.description.hasPrefix("placeholder") })
    #expect(kernel.profiler.activations.map(\.module) == ["quiet"])
    #expect(await kernel.startedModules == ["quiet"])
    await kernel.shutdown()
    #expect(LazyFixture.hooks("quiet", in: journal).isEmpty)
    #expect(await kernel.state(of: "quiet") == .stopped)
  }

  @Test func anEagerModuleWithoutHooksBootsWithItsServicesBoundNoHookRunAndItsPhasesProfiled()
    async throws
  {
    let journal = Journal.new()
    var quiet = LazyFixture.module(
      "quiet", journal: journal, activation: .eager, services: [LazyFixture.greeter])
    quiet.type = "Test.Hookless"
    let kernel = try LazyFixture.kernel([
      quiet,
      LazyFixture.module("after", journal: journal, activation: .eager, dependencies: ["quiet"]),
    ])
    kernel.profiler.isRecording = true
    try await kernel.boot()
    #expect(await kernel.state(of: "quiet") == .running)
    #expect(await kernel.startedModules == ["quiet", "after"])
    #expect(try kernel.container.resolve((any LazyGreeter).self).greeting == "hello")
    let phases = kernel.profiler.recorded.filter { $0.subject == "quiet" }
    #expect(Set(phases.map(\.phase)) == [.setUp, .start, .ready])
    #expect(phases.filter { $0.phase != .setUp }.allSatisfy { $0.total == .zero })
    await kernel.shutdown()
    #expect(LazyFixture.hooks("quiet", in: journal).isEmpty)
    #expect(LazyFixture.hooks("after", in: journal) == ["setUp", "start", "ready", "tearDown"])
  }

  @Test func theFirstURLCallWakesTheModule() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      LazyFixture.module("lazy", journal: journal, targets: [LazyFixture.calc])
    ])
    try await kernel.boot()
    let sum = try await kernel.mediator.open("test://calc/add?a=2&b=5") as? Int
    #expect(sum == 7)
    #expect(await kernel.state(of: "lazy") == .running)
    await kernel.shutdown()
  }

  @Test func theFirstResolveWakesTheModuleAndGetsItsBinding() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      LazyFixture.module("lazy", journal: journal, services: [LazyFixture.greeter])
    ])
    try await kernel.boot()
    #expect(
      kernel.container.bindings.map(\.kind.description).contains { $0.hasPrefix("placeholder") })
    let greeter = try kernel.container.resolve((any LazyGreeter).self)
    #expect(greeter.greeting == "hello")
    #expect(await kernel.state(of: "lazy") == .running)
    #expect(kernel.container.bindings.allSatisfy { !$0.kind.description.hasPrefix("placeholder") })
    #expect(try kernel.container.resolve((any LazyGreeter).self) === greeter, "singleton")
    await kernel.shutdown()
  }

  @Test func anActivationEventWakesTheModuleAndReachesItsHandler() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      LazyFixture.module(
        "lazy", journal: journal, events: ["ping"], config: ["handles": "ping"])
    ])
    try await kernel.boot()
    let report = await kernel.events.post("ping")
    #expect(report.handledBy == ["lazy"])
    #expect(await kernel.state(of: "lazy") == .running)
    let again = await kernel.events.post("ping")
    #expect(again.handledBy == ["lazy"], "one handler after waking, not two")
    #expect(await kernel.events.post("other").handledBy.isEmpty)
    await kernel.shutdown()
  }

  @Test func aWokenModuleHandlesItsActivationEventInItsPlaceInDispatchOrder() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      Fixture.module("first", journal: journal, config: ["handles": "ping"]),
      LazyFixture.module(
        "lazy", journal: journal, events: ["ping", "pong"], config: ["handles": "ping"]),
      LazyFixture.module("sleeper", journal: journal, events: ["ping"]),
      Fixture.module("last", journal: journal, config: ["handles": "ping"]),
    ])
    kernel.events.subscribe("ping") { _ in .handled }  // the host's, before boot: last
    try await kernel.boot()
    let before = kernel.events.subscriptions.map { "\($0.event): \($0.owners)" }
    #expect(before == [#"ping: ["first", "lazy", "sleeper", "last", "host"]"#, #"pong: ["lazy"]"#])
    let report = await kernel.events.post("ping")
    #expect(report.handledBy == ["first", "lazy", "last", "host"])
    #expect(report.ignoredBy == ["sleeper"], "woken, it subscribed to nothing")
    #expect(await kernel.state(of: "sleeper") == .running)
    let after = kernel.events.subscriptions.map { "\($0.event): \($0.owners)" }
    #expect(after == before, "each woken module's own subscription took its placeholder's place")
    #expect(await kernel.events.post("ping").handledBy == ["first", "lazy", "last", "host"])
    #expect(await kernel.events.post("pong").ignoredBy == ["lazy"], "its placeholder stays")
    await kernel.shutdown()
  }

  @Test func placeholdersOfEventsInAnyOrderAreSubscribedInBootOrder() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      LazyFixture.module("one", journal: journal, events: ["a", "b"]),
      LazyFixture.module("two", journal: journal, events: ["b"]),
      LazyFixture.module("three", journal: journal, events: ["b", "a", "c"]),
    ])
    try await kernel.boot()
    let subscriptions = kernel.events.subscriptions.map { "\($0.event): \($0.owners)" }
    #expect(
      subscriptions == [
        #"a: ["one", "three"]"#, #"b: ["one", "two", "three"]"#, #"c: ["three"]"#,
      ])
    #expect(await kernel.events.post("b").ignoredBy == ["one", "two", "three"])
    await kernel.shutdown()
  }

  @Test func removingADormantModuleWithdrawsItsEventPlaceholders() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      Fixture.module("base", journal: journal, config: ["handles": "ping"]),
      LazyFixture.module("lazy", journal: journal, events: ["ping", "pong"]),
    ])
    try await kernel.boot()
    try await kernel.remove("lazy")
    #expect(kernel.events.subscriptions.map(\.event) == ["ping"])
    #expect(await kernel.events.post("ping").handledBy == ["base"])
    await kernel.shutdown()
    #expect(LazyFixture.hooks("lazy", in: journal).isEmpty)
  }

  @Test func aBackgroundModuleStartsAfterReady() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      Fixture.module("base", journal: journal),
      LazyFixture.module("later", journal: journal, activation: .background),
    ])
    kernel.profiler.isRecording = true
    try await kernel.boot()
    await kernel.backgroundStartEnded()
    #expect(await kernel.state(of: "later") == .running)
    let entries = Journal.read(journal)
    #expect(entries.firstIndex(of: "base.ready")! < entries.firstIndex(of: "later.setUp")!)
    #expect(kernel.profiler.activations.first?.trigger == "background start")
    await kernel.shutdown()
    #expect(Journal.read(journal).suffix(2) == ["later.tearDown", "base.tearDown"])
  }

  @Test func aLazyDependencyWakesFirstAndTeardownReversesWakeOrder() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      Fixture.module("base", journal: journal),
      LazyFixture.module(
        "inner", journal: journal, dependencies: ["base"], services: [LazyFixture.greeter]),
      LazyFixture.module(
        "outer", journal: journal, dependencies: ["inner"], targets: [LazyFixture.calc]),
    ])
    kernel.profiler.isRecording = true
    try await kernel.boot()
    #expect(await kernel.state(of: "inner") == .dormant)
    #expect(try LazyFixture.add(kernel.mediator, 1, 2) == 3)
    #expect(await kernel.state(of: "inner") == .running)
    #expect(
      Journal.read(journal).filter { !$0.hasPrefix("base") } == [
        "inner.setUp", "inner.start", "inner.ready", "outer.setUp", "outer.start", "outer.ready",
      ])
    #expect(
      kernel.profiler.activations.map(\.trigger) == [
        "dependency of 'outer'", "call to target 'calc'",
      ])
    await kernel.shutdown()
    #expect(
      Journal.read(journal).filter { $0.hasSuffix("tearDown") } == [
        "outer.tearDown", "inner.tearDown", "base.tearDown",
      ])
  }

  @Test func aLazyModuleAnEagerOneNeedsStartsAtBoot() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      LazyFixture.module("lazy", journal: journal, targets: [LazyFixture.calc]),
      Fixture.module("eager", journal: journal, dependencies: ["lazy"]),
    ])
    #expect(kernel.plan.dormantModules().isEmpty)
    try await kernel.boot()
    #expect(await kernel.state(of: "lazy") == .running)
    #expect(LazyFixture.hooks("lazy", in: journal) == ["setUp", "start", "ready"])
    await kernel.shutdown()
  }

  @Test func aTriggerFromAHookDuringBootWakesTheModuleWithoutDeadlock() async throws {
    let journal = Journal.new()
    var caller = Fixture.module(
      "caller", journal: journal, config: ["calls": "calc", "resolves": true])
    caller.type = "Test.Triggering"
    let kernel = try LazyFixture.kernel([
      LazyFixture.module("lazy", journal: journal, targets: [LazyFixture.calc]),
      LazyFixture.module("greeter", journal: journal, services: [LazyFixture.greeter]),
      caller,
    ])
    try await kernel.boot()
    #expect(Journal.read(journal).contains("caller got 3"))
    #expect(Journal.read(journal).contains("caller got hello"))
    #expect(LazyFixture.hooks("lazy", in: journal) == ["setUp", "start", "ready"], "ready once")
    #expect(await kernel.state(of: "greeter") == .running)
    await kernel.shutdown()
  }

  @Test func aRequiredModuleThatFailsToWakeSleepsAgainAndTheTriggerGetsTheError() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      LazyFixture.module(
        "lazy", journal: journal, targets: [LazyFixture.calc], config: ["fail": "start"])
    ])
    try await kernel.boot()
    #expect {
      try LazyFixture.add(kernel.mediator, 1, 2)
    } throws: { error in
      guard
        case .targetCreationFailed(_, let owner, let reason)? = (error as? MediatorError)?.details
      else { return false }
      return owner == "lazy" && reason.contains("failed to wake in start")
    }
    #expect(await kernel.state(of: "lazy") == .dormant)
    #expect(kernel.mediator.hasTarget("calc"), "a later call tries again")
    await #expect {
      try await kernel.activate("lazy")
    } throws: { error in
      guard let error = error as? ActivationError else { return false }
      // The module and phase once: it said "… failed to wake in start (request): module 'lazy'
      // failed in start: lazy refused to start".
      return error.module == "lazy" && error.phase == .start && error.trigger == .request
        && error.description.hasSuffix("failed to wake in start (request): lazy refused to start")
    }
    #expect(LazyFixture.hooks("lazy", in: journal) == ["setUp", "start", "setUp", "start"])
    await kernel.shutdown()
  }

  @Test func anOptionalModuleThatFailsToWakeIsMarkedFailedAndItsTargetsRemoved() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      Fixture.module("base", journal: journal),
      LazyFixture.module(
        "lazy", journal: journal, isOptional: true, targets: [LazyFixture.calc],
        config: ["fail": "setUp"]),
    ])
    try await kernel.boot()
    await #expect {
      try await kernel.activate("lazy")
    } throws: { error in
      guard let error = error as? ActivationError else { return false }
      return error.module == "lazy" && error.phase == .setUp
    }
    // Its state says what failed once: "failed in setUp: lazy refused to setUp", not
    // "failed in setUp: module 'lazy' failed in setUp: lazy refused to setUp".
    #expect(
      await kernel.state(of: "lazy") == .failed(phase: .setUp, reason: "lazy refused to setUp"))
    #expect(!kernel.mediator.hasTarget("calc"))
    #expect(await kernel.state(of: "base") == .running, "the rest of the application goes on")
    await kernel.shutdown()
    #expect(LazyFixture.hooks("lazy", in: journal) == ["setUp"])
  }

  /// It stayed dormant, and the trigger got "failed to wake in load: module 'lazy' depends on
  /// 'base', which is not running", naming no phase that ran.
  @Test func anOptionalModuleWhoseDependencyFailedIsMarkedFailedWhenTriggered() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      Fixture.module("base", journal: journal, isOptional: true, config: ["fail": "setUp"]),
      LazyFixture.module(
        "lazy", journal: journal, dependencies: ["base"], isOptional: true,
        targets: [LazyFixture.calc]),
    ])
    try await kernel.boot()
    await #expect {
      try await kernel.activate("lazy")
    } throws: { error in
      "\(error)" == "lazy module 'lazy' failed to wake (request): its dependency 'base' failed"
    }
    #expect(
      await kernel.state(of: "lazy")
        == .failed(phase: .load, reason: "its dependency 'base' failed"))
    #expect(!kernel.mediator.hasTarget("calc"))
    await kernel.shutdown()
    #expect(LazyFixture.hooks("lazy", in: journal).isEmpty)
  }

  /// As with a running dependent: removing `base` would leave `lazy` unable to wake.
  @Test func aModuleADormantOneDependsOnIsNotRemoved() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      Fixture.module("base", journal: journal),
      LazyFixture.module(
        "lazy", journal: journal, dependencies: ["base"], targets: [LazyFixture.calc]),
    ])
    try await kernel.boot()
    await #expect {
      try await kernel.remove("base")
    } throws: { error in
      "\(error)" == "module 'base' is needed by dormant modules: lazy"
    }
    #expect(await kernel.state(of: "base") == .running)
    try await kernel.remove("lazy")
    try await kernel.remove("base")
    await kernel.shutdown()
  }

  /// A failed module leaves its dormant dependents no worse off when removed, so it can be
  /// removed and added again (as `:restart` does for a child that failed for good).
  @Test func aFailedModuleADormantOneDependsOnIsRemoved() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      Fixture.module("base", journal: journal, isOptional: true, config: ["fail": "setUp"]),
      LazyFixture.module(
        "lazy", journal: journal, dependencies: ["base"], targets: [LazyFixture.calc]),
    ])
    try await kernel.boot()
    try await kernel.remove("base")
    try await kernel.add(Fixture.module("base", journal: journal))
    #expect(try LazyFixture.add(kernel.mediator, 1, 2) == 3)
    await kernel.shutdown()
  }

  @Test func aTriggerAfterShutdownGetsATypedError() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      LazyFixture.module("lazy", journal: journal, targets: [LazyFixture.calc])
    ])
    try await kernel.boot()
    await kernel.shutdown()
    await #expect {
      try await kernel.activate("lazy")
    } throws: { error in
      (error as? ActivationError)?.phase == .load
    }
    #expect(LazyFixture.hooks("lazy", in: journal).isEmpty)
  }

  @Test func anAddedLazyModuleSleepsUntilCalled() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([Fixture.module("base", journal: journal)])
    try await kernel.boot()
    try await kernel.add(
      LazyFixture.module(
        "lazy", journal: journal, dependencies: ["base"], targets: [LazyFixture.calc]))
    #expect(await kernel.state(of: "lazy") == .dormant)
    _ = try await kernel.mediator.perform(target: "calc", action: "add", params: ["a": 1, "b": 2])
    #expect(await kernel.state(of: "lazy") == .running)
    await kernel.shutdown()
  }

  @Test func anAddedLazyModulesEventPlaceholderTakesItsPlaceInDispatchOrder() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      Fixture.module("high", journal: journal, priority: 10, config: ["handles": "ping"]),
      Fixture.module("low", journal: journal, config: ["handles": "ping"]),
    ])
    try await kernel.boot()
    var added = LazyFixture.module(
      "middle", journal: journal, events: ["ping"], config: ["handles": "ping"])
    added.priority = 5
    try await kernel.add(added)
    #expect(kernel.events.subscriptions.first?.owners == ["high", "middle", "low"])
    #expect(await kernel.events.post("ping").handledBy == ["high", "middle", "low"])
    #expect(await kernel.state(of: "middle") == .running)
    await kernel.shutdown()
  }

  @Test func removingADormantModuleRemovesItsPlaceholdersAndNeverWakesIt() async throws {
    let journal = Journal.new()
    let kernel = try LazyFixture.kernel([
      LazyFixture.module(
        "lazy", journal: journal, services: [LazyFixture.greeter], targets: [LazyFixture.calc])
    ])
    try await kernel.boot()
    try await kernel.remove("lazy")
    #expect(!kernel.mediator.hasTarget("calc"))
    #expect(!kernel.container.isBound((any LazyGreeter).self))
    await #expect(throws: ActivationError.self) { try await kernel.activate("lazy") }
    await kernel.shutdown()
    #expect(LazyFixture.hooks("lazy", in: journal).isEmpty)
  }

  @Test func planListsTriggers() throws {
    let kernel = try LazyFixture.kernel([
      LazyFixture.module(
        "lazy", journal: "", services: [LazyFixture.greeter], targets: [LazyFixture.calc],
        events: ["ping"])
    ])
    let triggers = kernel.plan.triggers(of: kernel.plan.modules[0]).map(\.description)
    #expect(triggers == ["resolve of Test.Greeter", "call to target 'calc'", "event 'ping'"])
  }
}
