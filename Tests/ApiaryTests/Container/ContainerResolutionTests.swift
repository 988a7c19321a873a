import Testing

@testable import Apiary
@testable import ApiaryContainer

@Suite struct ContainerResolutionTests {
  @Test func notBoundNamesTypeNameAndClosestKeys() throws {
    let c = Container()
    try c.register((any DIStore).self, name: "primary") { _ in DIMemoryStore() }
    try c.register(DIMemoryStore.self) { _ in DIMemoryStore() }
    try c.register(DIGreeting.self) { _ in DIGreeting(who: "x", times: 1) }
    let error = #expect(throws: ContainerError.self) {
      try c.resolve((any DIStore).self, name: "secondary")
    }
    #expect(
      error?.description
        == "no binding for ApiaryTests.DIStore named \"secondary\"; registered nearby: "
        + "ApiaryTests.DIStore named \"primary\", ApiaryTests.DIMemoryStore")
  }

  @Test func notBoundInAnEmptyContainer() {
    let error = #expect(throws: ContainerError.self) { try Container().resolve(DIThing.self) }
    #expect(
      error?.description
        == "no binding for ApiaryTests.DIThing; the container has no bindings near it; register "
        + "one or declare it in a manifest")
  }

  @Test func optionalReturnsNilOnlyWhenUnbound() throws {
    let c = Container()
    #expect(try c.optional(DIThing.self) == nil)
    try c.register(DIThing.self) { _ in DIThing(id: 7) }
    #expect(try c.optional(DIThing.self)?.id == 7)
    try c.register(DIThing.self, name: "broken") { _ in throw DIFactoryFailure() }
    #expect(throws: ContainerError.self) { try c.optional(DIThing.self, name: "broken") }
    #expect(c.isBound(DIThing.self) && !c.isBound(DIThing.self, name: "other"))
  }

  @Test func lazyDefersAndKeeps() throws {
    let c = Container()
    let counter = DICounter()
    try c.register(DIThing.self) { _ in DIThing(id: counter.next()) }
    let lazy = c.lazy(DIThing.self)
    #expect(counter.made.load(ordering: .relaxed) == 0)
    #expect(try lazy.get() === lazy.get())
    #expect(counter.made.load(ordering: .relaxed) == 1)
  }

  @Test func providerResolvesEachTime() throws {
    let c = Container()
    let counter = DICounter()
    try c.register(DIThing.self) { _ in DIThing(id: counter.next()) }
    let provider: Provider<DIThing> = c.provider()
    #expect(counter.made.load(ordering: .relaxed) == 0)
    #expect(try provider.get().id == 1)
    #expect(try provider.get().id == 2)
  }

  @Test func lazyBreaksAConstructorCycle() throws {
    let c = Container()
    try c.register(DILazyHolder.self, scope: .singleton) { r in DILazyHolder(other: r.lazy()) }
    let holder = try c.resolve(DILazyHolder.self)
    #expect(try holder.other.get() === holder)
  }

  @Test func propertyInjectionWithHookAndInheritance() throws {
    let c = Container()
    try c.register((any DIStore).self) { _ in DIMemoryStore() }
    try c.register((any DILogger).self, name: "audit") { _ in DIMemoryLogger() }
    try c.register(DIThing.self) { _ in DIThing(id: 3) }
    let controller = DISubController()
    #expect(!controller.$store)
    try c.inject(into: controller)
    #expect(controller.store.name == "memory")
    #expect(controller.greeting.id == 3)
    #expect(controller.hookSawStore)
  }

  /// Injection reads the stored fields, not the object's mirror, which its class may replace.
  @Test func propertyInjectionFillsTheStoredPropertiesWhateverTheMirrorSays() throws {
    let c = Container()
    try c.register((any DIStore).self) { _ in DIMemoryStore() }
    let controller = DIMirroredController()
    try c.inject(into: controller)
    #expect(controller.$store)
    #expect(controller.store.name == "memory")
    #expect(controller._count == 0)
  }

  @Test func propertyInjectionReportsTheMissingProperty() throws {
    let c = Container()
    try c.register((any DIStore).self) { _ in DIMemoryStore() }
    let error = #expect(throws: ContainerError.self) { try c.inject(into: DIController()) }
    #expect(
      error?.description.hasPrefix("no binding for ApiaryTests.DILogger named \"audit\"") == true)
  }

  @Test func failedResolveBuildsNoSuggestionsUntilPrinted() throws {
    let c = Container()
    for index in 0..<200 {
      try c.register(DIThing.self, name: "n\(index)") { _ in DIThing(id: index) }
    }
    // Throwing keeps only references; `nearby` does the work when asked.
    guard
      case .notBound(let key, let nearby)? = #expect(
        throws: ContainerError.self,
        performing: {
          try c.resolve(DIThing.self, name: "n9999")
        })?.details
    else { return }
    #expect(key.name == "n9999")
    #expect(nearby.suggestions.count == 3)
  }
}

final class DILazyHolder: Sendable {
  let other: Lazy<DILazyHolder>
  init(other: Lazy<DILazyHolder>) { self.other = other }
}

@Test func inferredOptionalGetsAHint() {
  let error = #expect(throws: ContainerError.self) {
    let _: DIThing? = try Container().resolve()
  }
  #expect(error?.description.contains("an Optional was inferred") == true)
}

@Test func makeBuildsAnUnregisteredInjectableClass() throws {
  let c = Container()
  try c.register((any DILogger).self) { _ in DIMemoryLogger() }
  try c.register((any DILogger).self, name: "audit") { _ in DIMemoryLogger() }
  let store = try c.make(DIFileStore.self)
  #expect(store.$audit && store.didInjectCalls == 1)
  #expect(try c.make(DIFileStore.self) !== store)
  #expect(!c.isBound(DIFileStore.self))
}

@Test func replacedSingletonIsReleasedOutsideTheLock() throws {
  let c = Container()
  try c.register(DIReentrantDeinit.self, scope: .singleton) { _ in DIReentrantDeinit(c) }
  try c.register(DIThing.self) { _ in DIThing(id: 1) }
  _ = try c.resolve(DIReentrantDeinit.self)
  // The old singleton's deinit resolves from the container: no deadlock.
  try c.register(DIReentrantDeinit.self, override: true) { _ in DIReentrantDeinit(c) }
  c.removeAll(ownedBy: "nobody")
  #expect(try c.resolve(DIThing.self).id == 1)
}

final class DIReentrantDeinit: Sendable {
  let container: Container
  init(_ container: Container) { self.container = container }
  deinit { _ = try? container.resolve(DIThing.self) }
}
