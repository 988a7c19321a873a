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
    #expect(await kernel.state(of: "plugin") == .stopped)
    #expect(await kernel.events.post("ping").handledBy.isEmpty)
    #expect(
      Journal.read(journal).suffix(4) == [
        "plugin.setUp", "plugin.start", "plugin.ready", "plugin.tearDown",
      ])
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
}
