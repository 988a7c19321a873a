import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryLifecycle

@Suite struct EventBusTests {
  @Test func handlersRunInBootOrderAndReportTheAggregate() async throws {
    let journal = Journal.new()
    let kernel = try Fixture.kernel([
      Fixture.module("low", journal: journal, priority: -1, config: ["handles": "sync"]),
      Fixture.module(
        "high", journal: journal, priority: 5, config: ["handles": "sync", "ignores": true]),
      Fixture.module("bad", journal: journal, config: ["handles": "sync", "throwsOnEvent": true]),
      Fixture.module("base", journal: journal, level: .basic, config: ["handles": "sync"]),
    ])
    kernel.profiler.isRecording = true
    try await kernel.boot()
    let report = await kernel.events.post("sync", payload: ["id": 1])
    #expect(report.handledBy == ["base", "low"])
    #expect(report.ignoredBy == ["high"])
    #expect(report.failures.map(\.module) == ["bad"])
    #expect(report.wasHandled)
    #expect(report.description.contains("failed in bad: bad choked on sync"))
    let nobody = await kernel.events.post("unheard")
    #expect(!nobody.wasHandled)
    #expect(kernel.profiler.recorded.contains { $0.phase == .event && $0.subject == "sync" })
    await kernel.shutdown()
  }

  @Test func payloadAndSenderReachTheHandler() async {
    let bus = EventBus()
    let seen = Recorded()
    bus.owned(by: "listener", rank: 0).subscribe("greet") { event in
      seen.append("\(event.sender ?? "-"):\(event.payload["who"] as? String ?? "?")")
      return .handled
    }
    let report = await bus.owned(by: "speaker", rank: 1).post("greet", payload: ["who": "bee"])
    #expect(seen.values == ["speaker:bee"])
    #expect(report.handledBy == ["listener"])
  }

  @Test func handlersAreOrderedByRankWhateverOrderTheySubscribeIn() async {
    let bus = EventBus()
    for (owner, rank) in [("late", 2), ("early", 0), ("late2", 2), ("middle", 1)] {
      bus.owned(by: owner, rank: rank).subscribe("e") { _ in .handled }
    }
    #expect(await bus.post("e").handledBy == ["early", "middle", "late", "late2"])
  }

  /// Subscriptions that rank before the last one are placed when the event is next read, as
  /// if each had been inserted in its place: by rank, then subscription order.
  @Test func lateSubscriptionsArePlacedByRankBeforeEachDispatch() async {
    let bus = EventBus()
    func subscribe(_ owner: String, _ rank: Int) {
      bus.owned(by: owner, rank: rank).subscribe("e") { _ in .handled }
    }
    subscribe("a5", 5)
    subscribe("b1", 1)
    subscribe("c5", 5)
    #expect(await bus.post("e").handledBy == ["b1", "a5", "c5"])
    subscribe("d3", 3)
    subscribe("e0", 0)
    subscribe("f3", 3)
    subscribe("g9", 9)
    subscribe("h1", 1)
    #expect(bus.subscriptions.first?.owners == ["e0", "b1", "h1", "d3", "f3", "a5", "c5", "g9"])
    subscribe("i2", 2)
    let late = bus.owned(by: "j0", rank: 0).subscribe("e") { _ in .handled }
    late.cancel()
    #expect(
      await bus.post("e").handledBy == ["e0", "b1", "h1", "i2", "d3", "f3", "a5", "c5", "g9"])
  }

  @Test func cancelledSubscriptionIsNotCalled() async {
    let bus = EventBus()
    let subscription = bus.subscribe("tick") { _ in .handled }
    #expect(await bus.post("tick").handledBy == ["host"])
    subscription.cancel()
    #expect(await bus.post("tick").handledBy.isEmpty)
  }

  @Test func concurrentSubscribeAndPostAreSafe() async {
    let bus = EventBus()
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<8 {
        group.addTask {
          let owned = bus.owned(by: "m\(index)", rank: index)
          for _ in 0..<50 {
            let token = owned.subscribe("e") { _ in .handled }
            _ = await owned.post("e")
            token.cancel()
          }
        }
      }
    }
    #expect(bus.subscriptions.allSatisfy { $0.owners.isEmpty })
  }
}
