import Synchronization
import Testing

@testable import Apiary
@testable import ApiaryContainer

@Suite struct ContainerScopeTests {
  private func container(_ scope: Scope, eager: Bool = false) throws -> (Container, DICounter) {
    let c = Container()
    let counter = DICounter()
    try c.register(DIThing.self, scope: scope, eager: eager) { _ in DIThing(id: counter.next()) }
    return (c, counter)
  }

  @Test func transientMakesANewInstanceEachTime() throws {
    let (c, _) = try container(.transient)
    #expect(try c.resolve(DIThing.self) !== c.resolve(DIThing.self))
  }

  @Test func singletonIsBuiltOnce() throws {
    let (c, counter) = try container(.singleton)
    #expect(counter.made.load(ordering: .relaxed) == 0)
    #expect(try c.resolve(DIThing.self) === c.resolve(DIThing.self))
    #expect(counter.made.load(ordering: .relaxed) == 1)
  }

  @Test func weakIsSharedWhileHeld() throws {
    let (c, _) = try container(.weak)
    var held: DIThing? = try c.resolve(DIThing.self)
    #expect(try c.resolve(DIThing.self).id == held?.id)
    weak let watcher = held
    held = nil
    #expect(watcher == nil)
    #expect(try c.resolve(DIThing.self).id == 2)
  }

  @Test func graphIsSharedWithinOneResolveOnly() throws {
    let (c, _) = try container(.graph)
    try c.register(DIPair.self) { r in DIPair(first: try r.resolve(), second: try r.resolve()) }
    let one = try c.resolve(DIPair.self)
    let two = try c.resolve(DIPair.self)
    #expect(one.first === one.second)
    #expect(one.first !== two.first)
  }

  @Test func eagerSingletonsAreBuiltAtBootInDependencyOrder() throws {
    let c = Container()
    let order = DIOrder()
    try c.register(DIPair.self, scope: .singleton, eager: true) { r in
      let pair = DIPair(first: try r.resolve(), second: try r.resolve())
      order.append("pair")
      return pair
    }
    try c.register(DIThing.self, scope: .singleton, eager: true) { _ in
      order.append("thing")
      return DIThing(id: 1)
    }
    #expect(c.bindings.allSatisfy { !$0.isBuilt })
    try c.buildEagerSingletons()
    try c.buildEagerSingletons()
    #expect(order.items == ["thing", "pair"])
    #expect(c.bindings.allSatisfy { $0.isBuilt && $0.isEager })
  }

  @Test func anEagerSingletonRegisteredAfterABuildWithNoneIsBuiltByTheNext() throws {
    let c = Container()
    try c.register(DIThing.self, scope: .singleton) { _ in DIThing(id: 1) }
    try c.buildEagerSingletons()
    #expect(c.bindings.allSatisfy { !$0.isBuilt })
    try c.register(DIThing.self, name: "eager", scope: .singleton, eager: true) { _ in
      DIThing(id: 2)
    }
    try c.buildEagerSingletons()
    #expect(c.bindings.filter(\.isBuilt).map(\.isEager) == [true])  // the eager one alone
  }

  @Test func eagerMustBeSingleton() throws {
    let error = #expect(throws: ContainerError.self) { try container(.transient, eager: true) }
    #expect(
      error?.description
        == "ApiaryTests.DIThing is marked eager but its scope is transient; only singletons can "
        + "be built eagerly")
  }

  @Test func eagerFailureIsReported() throws {
    let c = Container()
    try c.register(DIThing.self, scope: .singleton, eager: true) { _ in
      throw DIFactoryFailure()
    }
    #expect(throws: ContainerError.self) { try c.buildEagerSingletons() }
  }
}

final class DIOrder: Sendable {
  private let storage = Locked<[String]>([])
  func append(_ item: String) { storage.withLock { $0.append(item) } }
  var items: [String] { storage.withLock { $0 } }
}
