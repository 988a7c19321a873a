import ApiarySupport
import Foundation
import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryLifecycle

/// Handlers bounded by their module's `timeout`: one that hangs is abandoned and reported, and
/// the post goes on.
@Suite struct EventTimeoutTests {
  /// The limit of handlers that must not time out. The time a handler waits for a thread of the
  /// pool is not counted (the full suite, in parallel on two cores, has kept one that yields
  /// waiting for over 5 s): it needs only its own time.
  static let ample = 5.0

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

  /// A handler whose task is ready to go on while every thread of Swift's pool is held, for
  /// longer than its module's limit: the wait for a thread is not its time, so once the pool is
  /// free it goes on and its post reports it handled. It holds the whole pool, so it runs alone,
  /// in a test process of its own.
  @Test func aHandlerWaitingForAThreadOfAHeldPoolIsNotTimedOut() async {
    guard AloneTestProcess.isAlone else {
      let name = "EventTimeoutTests/aHandlerWaitingForAThreadOfAHeldPoolIsNotTimedOut"
      let (status, output) = await AloneTestProcess.run(name)
      #expect(status == 0, "\(output)")
      #expect(output.contains("passed"), "\(output)")
      return
    }
    let limit = 0.5
    let bus = EventBus()
    let parked = Locked<CheckedContinuation<Void, Never>?>(nil)
    let (arrivals, arrival) = AsyncStream<Void>.makeStream()
    bus.owned(by: "patient", rank: 0, seconds: limit).subscribe("tick") { _ in
      await withCheckedContinuation { continuation in
        parked.withLock { $0 = continuation }
        arrival.yield()
      }
      return .handled
    }
    let post = Task { await bus.post("tick") }
    var arrived = arrivals.makeAsyncIterator()
    await arrived.next()  // the handler runs, and waits
    let pool = ProcessInfo.processInfo.activeProcessorCount
    let holding = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    for _ in 0..<pool {
      Task.detached {
        holding.signal()
        gate.wait()
        gate.signal()  // and the next holder
      }
    }
    await withCheckedContinuation { (released: CheckedContinuation<Void, Never>) in
      Thread {
        for _ in 0..<pool { holding.wait() }
        // Every thread of the pool is held: the handler's task is ready, with none to run on.
        parked.withLock { $0.take() }?.resume()
        // The one timed step: the pool stays held for four times the limit.
        Thread.sleep(forTimeInterval: 4 * limit)
        gate.signal()
        released.resume()
      }.start()
    }
    let report = await post.value
    #expect(report.handledBy == ["patient"])
    #expect(report.failures.isEmpty, "\(report)")
  }

  /// An abandoned handler's result is dropped, so how it ended after all is logged: one line
  /// when it returns, one with its error when it throws.
  @Test func anAbandonedHandlerThatEndsLaterIsLogged() async {
    struct Refused: Error {}
    let (lines, line) = AsyncStream<String>.makeStream()
    let bus = EventBus(log: { line.yield($0) })
    // Gates that hold no thread and ignore the handlers' cancellation: tasks of their own that
    // end when their stream does.
    let (returning, letReturn) = AsyncStream<Never>.makeStream()
    let (throwing, letThrow) = AsyncStream<Never>.makeStream()
    let returnGate = Task { for await _ in returning {} }
    let throwGate = Task { for await _ in throwing {} }
    bus.owned(by: "slow", rank: 0, seconds: 0.2).subscribe("tick") { _ in
      await returnGate.value
      return .handled
    }
    bus.owned(by: "late", rank: 1, seconds: 0.2).subscribe("tick") { _ in
      await throwGate.value
      throw Refused()
    }
    let report = await bus.post("tick")
    #expect(report.failures.map(\.module) == ["slow", "late"])
    var logged = lines.makeAsyncIterator()
    letReturn.finish()
    let finished = await logged.next() ?? ""
    #expect(
      finished.hasPrefix("apiary: handler of 'slow' for event 'tick' finished "), "\(finished)")
    #expect(finished.hasSuffix(" after it was abandoned"), "\(finished)")
    // Counted from its own abandonment, before "late" ran its 0.2 s, not from "late"'s.
    #expect(Self.seconds(in: finished).map { $0 >= 0.2 } == true, "\(finished)")
    letThrow.finish()
    let threw = await logged.next() ?? ""
    #expect(threw.hasPrefix("apiary: handler of 'late' for event 'tick' threw "), "\(threw)")
    #expect(threw.hasSuffix(" after it was abandoned: Refused()"), "\(threw)")
  }

  /// The seconds a late-end line names, as `Profiler.format` wrote them: `finished 2.5 ms after`.
  static func seconds(in line: String) -> Double? {
    let words = line.split(separator: " ")
    guard let at = words.firstIndex(where: { $0 == "finished" || $0 == "threw" }),
      at + 2 < words.count, let value = Double(words[at + 1])
    else { return nil }
    let units: [Substring: Double] = ["µs": 1e-6, "ms": 1e-3, "s": 1]
    return units[words[at + 2]].map { value * $0 }
  }
}
