import Dispatch
import Testing

@testable import Apiary
@testable import ApiaryContainer

@Suite struct ContainerConcurrencyTests {
  /// Threads resolve (through factories that resolve further) while others register, remove
  /// and re-register modules, derive and inspect. Every singleton must be built once.
  @Test func resolveWhileRegisteringFromManyThreads() throws {
    let root = Container()
    let counter = DICounter()
    try root.register((any DILogger).self, scope: .singleton) { _ in
      _ = counter.next()
      return DIMemoryLogger()
    }
    try root.register((any DIStore).self, scope: .weak) { _ in DIMemoryStore() }
    try root.register(DINotesService.self) { r in
      DINotesService(store: try r.resolve(), log: try r.resolve())
    }
    try root.register(DIThing.self, scope: .graph) { _ in DIThing(id: 0) }
    let failures = DICounter()
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      let module = root.owned(by: "module\(worker)")
      for round in 0..<50 {
        do {
          if worker % 2 == 0 {
            let service = try root.resolve(DINotesService.self)
            if service.log !== (try root.resolve((any DILogger).self)) { _ = failures.next() }
            _ = try root.optional(DIGreeting.self, name: "w\(worker - 1)")
            _ = root.child().isBound(DIThing.self)
          } else {
            try module.register(DIGreeting.self, name: "w\(worker)", scope: .singleton) { r in
              _ = try r.resolve(DINotesService.self)
              return DIGreeting(who: "w", times: 1)
            }
            _ = try root.resolve(DIGreeting.self, name: "w\(worker)")
            if round % 5 == 0 { _ = root.derived(removing: ["module1"]).bindings }
            root.removeAll(ownedBy: "module\(worker)")
          }
        } catch {
          _ = failures.next()
        }
      }
    }
    #expect(failures.made.load(ordering: .relaxed) == 0)
    #expect(counter.made.load(ordering: .relaxed) == 1)
  }

  /// Many tasks race to build one lazy singleton; it is built exactly once.
  @Test func singletonIsBuiltOnceUnderContention() async throws {
    let c = Container()
    let counter = DICounter()
    try c.register(DIThing.self, scope: .singleton) { _ in DIThing(id: counter.next()) }
    let ids = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<16 { group.addTask { try c.resolve(DIThing.self).id } }
      return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
    }
    #expect(ids == [1])
    #expect(counter.made.load(ordering: .relaxed) == 1)
  }
}
