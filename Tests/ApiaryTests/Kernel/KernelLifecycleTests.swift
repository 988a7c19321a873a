import Synchronization
import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryLifecycle

@Suite struct KernelLifecycleTests {
  @Test func hooksRunInBootOrderAndTearDownInReverse() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([
      Fixture.module("notes", journal: journal, dependencies: ["store"]),
      Fixture.module("store", journal: journal, level: .basic),
      Fixture.module("log", journal: journal, level: .basic, priority: 10),
    ])
    try await kernel.boot()
    await kernel.shutdown()
    #expect(
      Journal.read(journal) == [
        "log.setUp", "store.setUp", "notes.setUp",
        "log.start", "store.start", "notes.start",
        "log.ready", "store.ready", "notes.ready",
        "notes.tearDown", "store.tearDown", "log.tearDown",
      ])
    #expect(await kernel.moduleStates.map(\.state) == [.stopped, .stopped, .stopped])
  }

  @Test func asyncModulesStartConcurrentlyAfterTheirDependencies() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([
      Fixture.module("slow", journal: journal, isAsync: true, config: ["delay": 0.3]),
      Fixture.module("fast", journal: journal, isAsync: true, config: ["delay": 0.05]),
      Fixture.module("after", journal: journal, dependencies: ["slow"]),
    ])
    try await kernel.boot()
    let started = Journal.read(journal).filter { $0.hasSuffix(".start") }
    // fast finished while slow was still sleeping; after waited for slow.
    #expect(started == ["fast.start", "slow.start", "after.start"])
    #expect(await kernel.startedModules == ["fast", "slow", "after"])
    await kernel.shutdown()
    let tornDown = Journal.read(journal).filter { $0.hasSuffix(".tearDown") }
    #expect(tornDown == ["after.tearDown", "slow.tearDown", "fast.tearDown"])
  }

  @Test func requiredFailureRollsBackStartedModulesAndNamesModuleAndPhase() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([
      Fixture.module("a", journal: journal),
      Fixture.module("b", journal: journal, dependencies: ["a"], config: ["fail": "start"]),
      Fixture.module("c", journal: journal, dependencies: ["b"]),
    ])
    await #expect {
      try await kernel.boot()
    } throws: { error in
      guard case .hookFailed(let module, let phase, let cause)? = (error as? KernelError)?.details
      else {
        return false
      }
      return module == "b" && phase == .start && "\(cause)" == "b refused to start"
    }
    let entries = Journal.read(journal)
    #expect(entries.contains("a.tearDown"))
    #expect(!entries.contains("c.start"))
    #expect(!entries.contains("b.tearDown"))
  }

  @Test func optionalFailureSkipsDependentsAndTheRestRuns() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([
      Fixture.module("base", journal: journal),
      Fixture.module(
        "flaky", journal: journal, isOptional: true, config: ["fail": "setUp", "handles": "ping"]),
      Fixture.module("needsFlaky", journal: journal, dependencies: ["flaky"]),
      Fixture.module("other", journal: journal, dependencies: ["base"]),
    ])
    try await kernel.boot()
    #expect(
      await kernel.state(of: "flaky") == .failed(phase: .setUp, reason: "flaky refused to setUp"))
    #expect(await kernel.state(of: "needsFlaky") == .skipped(reason: "dependency 'flaky' failed"))
    #expect(await kernel.state(of: "other") == .running)
    // The failed module's registrations are gone.
    #expect(kernel.events.subscriptions.isEmpty)
    await kernel.shutdown()
  }

  @Test func hangingStartTimesOutEvenWithoutSuspending() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([
      Fixture.module("ok", journal: journal),
      Fixture.module(
        "spinner", journal: journal, isOptional: true, timeout: 1, config: ["spin": true]),
      Fixture.module(
        "sleeper", journal: journal, isOptional: true, timeout: 1, config: ["hang": "start"]),
    ])
    // Had the kernel waited for the spinner, its start would have succeeded after 2 s. The limit
    // is 1 s, not less, so a loaded machine cannot push the trivial setUp hooks past it.
    try await kernel.boot()
    guard case .failed(.start, let reason)? = await kernel.state(of: "sleeper") else {
      Issue.record("sleeper should have failed in start")
      return
    }
    #expect(reason.contains("1.0 s"))
    guard case .failed(.start, _)? = await kernel.state(of: "spinner") else {
      Issue.record("spinner should have failed in start")
      return
    }
    #expect(await kernel.state(of: "ok") == .running)
    await kernel.shutdown()
  }

  @Test func extremePrioritiesBootInOrderWithoutOverflow() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([
      Fixture.module("lowest", journal: journal, priority: Int.min),
      Fixture.module("highest", journal: journal, priority: Int.max),
    ])
    try await kernel.boot()
    #expect(await kernel.startedModules == ["highest", "lowest"])
    await kernel.shutdown()
  }

  @Test func unresolvedTypeFailsBootWithTheTypeName() async throws {
    let kernel = try Kernel(
      application: Fixture.application,
      modules: [ModuleManifest(name: "ghost", type: "Nowhere.Ghost")],
      catalog: Fixture.catalog)
    await #expect(throws: KernelError.self) { try await kernel.boot() }
    do {
      try await Fixture.kernel([]).boot()
    } catch {
      Issue.record("an empty application boots: \(error)")
    }
    let notModule = try Kernel(
      application: Fixture.application,
      modules: [ModuleManifest(name: "catalog", type: "ApiarySupport.TypeCatalog")],
      catalog: Fixture.catalog)
    await #expect {
      try await notModule.boot()
    } throws: { error in
      "\(error)".contains("does not conform to Apiary.Module")
    }
  }

  @Test func bootTwiceIsRefused() async throws {
    let kernel = try Fixture.kernel([])
    try await kernel.boot()
    await #expect(throws: KernelError.self) { try await kernel.boot() }
  }

  @Test func profilerRecordsEveryHook() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([
      Fixture.module("a", journal: journal, config: ["delay": 0.05]),
      Fixture.module("b", journal: journal),
    ])
    kernel.profiler.isRecording = true
    try await kernel.boot()
    await kernel.shutdown()
    let recorded = kernel.profiler.recorded
    #expect(recorded.count == 8)
    #expect(kernel.profiler.slowestFirst.first?.subject == "a")
    #expect(kernel.profiler.slowestFirst.first?.phase == .start)
    #expect(kernel.profiler.table().contains("start"))
    #expect(kernel.profiler.json().hasPrefix("[{\"subject\":\"a\",\"phase\":\"start\""))
  }

  @Test func observerSeesTheTimeline() async throws {
    let journal = Journal.new()
    let seen = Recorded()
    let kernel = try Kernel(
      application: Fixture.application,
      modules: [Fixture.module("a", journal: journal)], catalog: Fixture.catalog,
      observer: { seen.append("\($0.module).\($0.phase)") })
    try await kernel.boot()
    await kernel.shutdown()
    #expect(seen.values == ["a.setUp", "a.start", "a.ready", "a.tearDown"])
  }
}

/// A thread-safe list for observers.
final class Recorded: Sendable {
  private let storage = Locked<[String]>([])
  func append(_ value: String) { storage.withLock { $0.append(value) } }
  var values: [String] { storage.withLock { $0 } }
}
