import Foundation
import Testing

@testable import Apiary
@testable import ApiaryKernel

/// Wake-ups that overlap other triggers and other changes. Each test holds the wake-up inside a
/// module hook with a ``HookGate``, makes the other request arrive (``Kernel/joined(_:_:)`` or
/// ``Kernel/queued(_:)`` says it is waiting), then opens the gate.
@Suite(.timeLimit(.minutes(1))) struct LazyActivationConcurrencyTests {
  @Test func concurrentFirstTriggersWakeTheModuleOnce() async throws {
    let journal = Journal.new()
    let gate = HookGate()
    var config = gate.config("setUp")
    config["handles"] = "ping"
    let kernel = try LazyFixture.kernel([
      LazyFixture.module(
        "lazy", journal: journal, targets: [LazyFixture.calc], events: ["ping"], config: config)
    ])
    try await kernel.boot()
    let first = Task { try await kernel.activate("lazy") }
    await gate.arrival()
    let call = Task {
      try await kernel.mediator.perform(
        target: "calc", action: "add", params: ["a": 1, "b": 2], as: Int.self)
    }
    let event = Task { await kernel.events.post("ping") }
    await kernel.joined("lazy", 2)
    gate.open()
    try await first.value
    #expect(try await call.value == 3)
    #expect(await event.value.handledBy == ["lazy"])
    #expect(LazyFixture.hooks("lazy", in: journal) == ["setUp", "start", "ready"])
    await kernel.shutdown()
    #expect(LazyFixture.hooks("lazy", in: journal) == ["setUp", "start", "ready", "tearDown"])
  }

  @Test func shutdownDuringAWakeUpStopsItAndTearsTheModuleDown() async throws {
    let journal = Journal.new()
    let gate = HookGate()
    let kernel = try LazyFixture.kernel([
      Fixture.module("base", journal: journal),
      LazyFixture.module(
        "lazy", journal: journal, dependencies: ["base"], targets: [LazyFixture.calc],
        config: gate.config("start")),
    ])
    try await kernel.boot()
    let trigger = Task { try await kernel.activate("lazy") }
    await gate.arrival()
    let shutdown = Task { await kernel.shutdown() }
    await kernel.queued(1)
    gate.open()
    await #expect {
      try await trigger.value
    } throws: { error in
      guard let error = error as? ActivationError, case KernelError.interrupted = error.cause
      else { return false }
      return error.module == "lazy"
    }
    await shutdown.value
    #expect(
      Journal.read(journal).filter { $0.hasSuffix("tearDown") } == [
        "lazy.tearDown", "base.tearDown",
      ])
    #expect(!Journal.read(journal).contains("lazy.ready"))
  }

  @Test func aTriggerDuringAnAddWaitsForItThenWakesTheModule() async throws {
    let journal = Journal.new()
    let gate = HookGate()
    let kernel = try LazyFixture.kernel([
      LazyFixture.module("lazy", journal: journal, targets: [LazyFixture.calc])
    ])
    try await kernel.boot()
    let add = Task {
      try await kernel.add(Fixture.module("added", journal: journal, config: gate.config("start")))
    }
    await gate.arrival()
    let call = Task {
      try await kernel.mediator.perform(
        target: "calc", action: "add", params: ["a": 2, "b": 2], as: Int.self)
    }
    await kernel.queued(1)
    #expect(await kernel.state(of: "lazy") == .dormant)
    gate.open()
    try await add.value
    #expect(try await call.value == 4)
    let entries = Journal.read(journal)
    #expect(entries.firstIndex(of: "added.ready")! < entries.firstIndex(of: "lazy.setUp")!)
    await kernel.shutdown()
    #expect(
      Journal.read(journal).filter { $0.hasSuffix("tearDown") } == [
        "lazy.tearDown", "added.tearDown",
      ])
  }
}
