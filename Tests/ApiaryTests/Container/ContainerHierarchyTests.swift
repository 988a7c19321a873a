import Testing

@testable import Apiary
@testable import ApiaryContainer

@Suite struct ContainerHierarchyTests {
  @Test func childSeesParentButNotTheReverse() throws {
    let parent = Container()
    try parent.register((any DIStore).self) { _ in DIMemoryStore(name: "parent") }
    let child = parent.child()
    try child.register(DIThing.self) { _ in DIThing(id: 1) }
    #expect(try child.resolve((any DIStore).self).name == "parent")
    #expect(throws: ContainerError.self) { try parent.resolve(DIThing.self) }
    #expect(child.bindings.count == 2 && parent.bindings.count == 1)
  }

  @Test func singletonsAreSharedAcrossTheHierarchy() throws {
    let parent = Container()
    try parent.register(DIThing.self, scope: .singleton) { _ in DIThing(id: 1) }
    let first = parent.child()
    let second = parent.child()
    #expect(try first.resolve(DIThing.self) === second.resolve(DIThing.self))
    #expect(try parent.resolve(DIThing.self) === first.resolve(DIThing.self))
  }

  @Test func childShadowsForTransientsButParentSingletonsUseParentBindings() throws {
    let parent = Container()
    try parent.register((any DIStore).self) { _ in DIMemoryStore(name: "real") }
    try parent.register(DINotesService.self, scope: .singleton) { r in
      DINotesService(store: try r.resolve(), log: DIMemoryLogger())
    }
    try parent.register(DIPair.self) { _ in DIPair(first: DIThing(id: 0), second: DIThing(id: 0)) }
    let test = parent.child()
    try test.register((any DIStore).self) { _ in DIMemoryStore(name: "fake") }
    #expect(try test.resolve((any DIStore).self).name == "fake")
    // A shared singleton does not depend on which child asked first.
    #expect(try test.resolve(DINotesService.self).store.name == "real")
  }

  @Test func derivedAddsBindingsLaterWins() throws {
    let c = Container()
    try c.register((any DIStore).self) { _ in DIMemoryStore(name: "real") }
    let derived = try c.derived { d in
      try d.register((any DIStore).self) { _ in DIMemoryStore(name: "fake") }
      try d.register(DIThing.self) { _ in DIThing(id: 1) }
    }
    #expect(try derived.resolve((any DIStore).self).name == "fake")
    #expect(try c.resolve((any DIStore).self).name == "real")
    #expect(!c.isBound(DIThing.self))
    // Outside `configure`, the derived container refuses duplicates again.
    #expect(throws: ContainerError.self) {
      try derived.register(DIThing.self) { _ in DIThing(id: 2) }
    }
  }

  @Test func derivedRemovesAModuleAndKeepsBuiltSingletons() throws {
    let c = Container()
    let counter = DICounter()
    try c.owned(by: "core").register(DIThing.self, scope: .singleton) { _ in
      DIThing(id: counter.next())
    }
    try c.owned(by: "sync").register((any DIStore).self) { _ in DIMemoryStore() }
    let built = try c.resolve(DIThing.self)
    let derived = c.derived(removing: ["sync"])
    #expect(!derived.isBound((any DIStore).self))
    #expect(c.isBound((any DIStore).self))
    #expect(try derived.resolve(DIThing.self) === built)
    #expect(counter.made.load(ordering: .relaxed) == 1)
  }

  @Test func derivedDoesNotShareSingletonsBuiltAfterwards() throws {
    let c = Container()
    try c.register(DIThing.self, scope: .singleton) { _ in DIThing(id: 1) }
    let derived = c.derived(removing: [])
    #expect(try derived.resolve(DIThing.self) !== c.resolve(DIThing.self))
  }

  @Test func testOverrideReplacesOneBindingInOneContainer() throws {
    let app = Container()
    try app.register((any DILogger).self, scope: .singleton) { _ in DIMemoryLogger() }
    try app.register(DINotesService.self) { r in
      DINotesService(store: DIMemoryStore(), log: try r.resolve())
    }
    let fake = DIMemoryLogger()
    let test = try app.derived { try $0.register((any DILogger).self, instance: fake) }
    #expect(try test.resolve(DINotesService.self).log === fake)
    #expect(try app.resolve(DINotesService.self).log !== fake)
  }
}
