import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryMediator

/// Small enough to run quickly under `swift test --sanitize=thread`.
@Suite struct MediatorConcurrencyTests {
  @Test func concurrentCachedCallsShareOneInstance() async throws {
    let mediator = try Fixtures.mediator()
    let ids = await withTaskGroup(of: Int?.self) { group in
      for _ in 0..<64 {
        group.addTask {
          try? await mediator.perform(target: "calc", action: "id", cache: true) as? Int
        }
      }
      var ids = Set<Int?>()
      for await id in group { ids.insert(id) }
      return ids
    }
    #expect(ids.count == 1)
    #expect(ids.first != nil)
  }

  @Test func callsRaceWithRegistrationInterceptorsAndRemoval() async throws {
    let mediator = try Fixtures.mediator()
    let unexpected = Recorder()
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for index in 0..<50 {
            let url = "app://calc/add?a=\(index)&b=\(task)"
            do {
              let sum =
                task.isMultiple(of: 2)
                ? try synchronously { try mediator.open(url) } as? Int
                : try await mediator.open(url) as? Int
              if sum != index + task { unexpected.note("\(url) gave \(String(describing: sum))") }
            } catch let error as MediatorError {
              // Allowed only while the target is away or an interceptor vetoes.
              switch error.code {
              case .targetNotFound, .vetoed: break
              default: unexpected.note("\(url): \(error)")
              }
            } catch {
              unexpected.note("\(url): untyped \(error)")
            }
          }
        }
      }
      group.addTask {
        for round in 0..<20 {
          let token = mediator.intercept(
            .target("calc"), .before { _ in round % 2 == 0 ? .proceed : .veto("odd") })
          mediator.removeTargets(ownedBy: "calc")
          try? mediator.addTargets(
            [Fixtures.calc], owner: "calc", context: Fixtures.context(mediator))
          mediator.releaseCachedTarget("calc")
          _ = mediator.targets()
          mediator.removeInterceptor(token)
        }
      }
    }
    #expect(unexpected.log == [])
    #expect(
      try await mediator.perform(target: "calc", action: "add", params: ["a": 1, "b": 1]) as? Int
        == 2)
  }
}
