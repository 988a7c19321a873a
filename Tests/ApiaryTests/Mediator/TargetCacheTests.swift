import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryMediator

@Suite struct TargetCacheTests {
  private func id(_ mediator: Mediator, cache: Bool) throws -> Int? {
    try mediator.perform(target: "calc", action: "id", cache: cache) as? Int
  }

  @Test func targetsAreCreatedLazily() throws {
    let mediator = try Fixtures.mediator()
    #expect(mediator.targets().first { $0.name == "calc" }?.isCached == false)
    let broken = TargetManifest(
      name: "broken", type: "ApiaryTests.BrokenTarget", actions: [ActionManifest(name: "run")])
    // Adding a target whose init throws succeeds: nothing is created until a call needs it.
    try mediator.addTargets([broken], owner: "broken", context: Fixtures.context(mediator))
    let error = mediatorError { try mediator.perform(target: "broken", action: "run") }
    #expect(
      error
        == .targetCreationFailed(
          target: "broken", owner: "broken", reason: "the database is closed")
    )
  }

  @Test func uncachedCallsGetANewInstanceEachTime() throws {
    let mediator = try Fixtures.mediator()
    let first = try id(mediator, cache: false)
    let second = try id(mediator, cache: false)
    #expect(first != nil && first != second)
    #expect(mediator.targets().first { $0.name == "calc" }?.isCached == false)
  }

  @Test func cachedCallsShareOneInstance() throws {
    let mediator = try Fixtures.mediator()
    let first = try id(mediator, cache: true)
    #expect(try id(mediator, cache: true) == first)
    #expect(mediator.targets().first { $0.name == "calc" }?.isCached == true)
  }

  /// CTMediator uses its cache even when the caller asks for no caching; Apiary does not.
  @Test func anUncachedCallIgnoresAnExistingCachedInstance() throws {
    let mediator = try Fixtures.mediator()
    let cached = try id(mediator, cache: true)
    let uncached = try id(mediator, cache: false)
    #expect(uncached != cached)
    #expect(try id(mediator, cache: true) == cached)
  }

  @Test func releasingTheCachedTargetCreatesANewOneNextTime() throws {
    let mediator = try Fixtures.mediator()
    let first = try id(mediator, cache: true)
    mediator.releaseCachedTarget("calc")
    #expect(mediator.targets().first { $0.name == "calc" }?.isCached == false)
    let second = try id(mediator, cache: true)
    #expect(second != first)
    #expect(try id(mediator, cache: true) == second)
    mediator.releaseCachedTarget("nothing")  // unknown names are ignored
  }

  @Test func removingTargetsSendsLaterCallsToNotFound() throws {
    let mediator = try Fixtures.mediator()
    _ = try id(mediator, cache: true)
    #expect(mediator.hasTarget("calc"))
    mediator.removeTargets(ownedBy: "someone-else")
    #expect(mediator.hasTarget("calc"))
    mediator.removeTargets(ownedBy: "calc")
    #expect(!mediator.hasTarget("calc"))
    #expect(!mediator.hasAction(target: "calc", action: "id"))
    #expect(mediator.targets().isEmpty)
    let error = mediatorError { try mediator.perform(target: "calc", action: "id") }
    #expect(error == .targetNotFound(target: "calc", action: "id"))
    // The name is free again.
    try mediator.addTargets([Fixtures.calc], owner: "calc2", context: Fixtures.context(mediator))
    #expect(mediator.targets().map(\.owner) == ["calc2"])
  }
}
