import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryLifecycle

/// Handlers bounded by their module's `timeout`: one that hangs is abandoned and reported, and
/// the post goes on.
@Suite struct EventTimeoutTests {
  /// The limit of handlers that must not time out: the full suite, run in parallel on two
  /// cores, has kept a handler that yields waiting for a thread for over 5 s.
  static let ample = 600.0

  @Test func anAsyncHandlerThatNeverResumesIsAbandonedAndTheNextHandlersRun() async {
    let bus = EventBus()
    // Finished by the test at the end; until then, the handler waits on it.
    let (gate, opener) = AsyncStream<Void>.makeStream()
    let (cancelled, cancellation) = AsyncStream<Bool>.makeStream()
    bus.owned(by: "stuck", rank: 0, seconds: 0.2).subscribe("tick") { _ in
      for await _ in gate {}
      cancellation.yield(Task.isCancelled)
      return .handled
    }
    bus.owned(by: "after", rank: 1, seconds: Self.ample).subscribe("tick") { _ in .handled }
    let report = await bus.post("tick")
    #expect(report.handledBy == ["after"])
    #expect(report.failures.map(\.module) == ["stuck"])
    #expect(
      report.failures.first?.error as? EventTimeout
        == EventTimeout(module: "stuck", event: "tick", seconds: 0.2))
    #expect(
      report.description
        == "event 'tick': handled by [after]; failed in stuck: handler of 'stuck' for event "
        + "'tick' did not finish within 0.2 s (manifest 'timeout'); abandoned, the event went on "
        + "to the next handler")
    opener.finish()
    var iterator = cancelled.makeAsyncIterator()
    #expect(await iterator.next() == true)  // the abandoned handler's task was cancelled
  }

  /// A handler that blocks its thread cannot be stopped: the post returns without it, the
  /// handlers after it run off Swift's pool, and a later post of the same event works.
  @Test func aHandlerThatBlocksItsThreadIsAbandonedAfterItsModulesTimeout() async throws {
    let journal = Journal.new()
    let gate = HookGate()
    var blocking = gate.config("event")
    blocking["handles"] = "tick"
    let kernel = try Fixture.kernel([
      Fixture.module("before", journal: journal, timeout: Self.ample, config: ["handles": "tick"]),
      Fixture.module("stuck", journal: journal, timeout: 0.2, config: blocking),
      Fixture.module("after", journal: journal, timeout: Self.ample, config: ["handles": "tick"]),
    ])
    try await kernel.boot()
    let report = await kernel.events.post("tick")
    #expect(report.handledBy == ["before", "after"])
    #expect(report.failures.map(\.module) == ["stuck"])
    #expect(
      report.failures.first?.error as? EventTimeout
        == EventTimeout(module: "stuck", event: "tick", seconds: 0.2))
    gate.open()
    #expect(await kernel.events.post("tick").handledBy == ["before", "stuck", "after"])
    await kernel.shutdown()
  }

  @Test func handlersThatSuspendAndFinishInTimeAreNotReported() async {
    let bus = EventBus()
    for (rank, owner) in ["a", "b", "c"].enumerated() {
      bus.owned(by: owner, rank: rank, seconds: Self.ample).subscribe("tick") { _ in
        await Task.yield()
        return .handled
      }
    }
    bus.subscribe("tick") { _ in .ignored }  // the host's: no limit
    let report = await bus.post("tick")
    #expect(report.handledBy == ["a", "b", "c"])
    #expect(report.ignoredBy == ["host"])
    #expect(report.failures.isEmpty)
  }

  /// Handlers run in a task of their own, which is cancelled with the poster's.
  @Test func handlersSeeThePostersCancellation() async {
    let bus = EventBus()
    bus.owned(by: "a", rank: 0, seconds: Self.ample).subscribe("tick") { _ in
      Task.isCancelled ? .ignored : .handled
    }
    let poster = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await bus.post("tick")
    }
    #expect(await poster.value.ignoredBy == ["a"])
    #expect(await bus.post("tick").handledBy == ["a"])
  }

  @Test func aHandlerThatThrowsInALimitedPostIsReportedWithItsError() async {
    struct Refused: Error {}
    let bus = EventBus()
    bus.owned(by: "bad", rank: 0, seconds: Self.ample).subscribe("tick") { _ in throw Refused() }
    bus.owned(by: "good", rank: 1, seconds: Self.ample).subscribe("tick") { _ in .handled }
    let report = await bus.post("tick")
    #expect(report.handledBy == ["good"])
    #expect(report.failures.map(\.module) == ["bad"])
    #expect(report.failures.first?.error is Refused)
  }
}
