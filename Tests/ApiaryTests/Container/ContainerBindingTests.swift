import Testing

@testable import Apiary
@testable import ApiaryContainer

@Suite struct ContainerBindingTests {
  @Test func factoryGetsConstructorInjection() throws {
    let c = Container()
    try c.register((any DIStore).self, scope: .singleton) { _ in DIMemoryStore() }
    try c.register((any DILogger).self, scope: .singleton) { _ in DIMemoryLogger() }
    try c.register(DINotesService.self) { r in
      DINotesService(store: try r.resolve(), log: try r.resolve())
    }
    let service = try c.resolve(DINotesService.self)
    #expect(service.store.name == "memory")
    #expect(service.log === (try c.resolve((any DILogger).self)))
  }

  @Test func instanceBindingReturnsTheInstance() throws {
    let c = Container()
    let store = DIMemoryStore(name: "given")
    try c.register((any DIStore).self, instance: store)
    #expect(try c.resolve((any DIStore).self) === store)
    #expect(c.bindings.first?.isBuilt == true)
  }

  @Test func namedBindingsAreSeparateKeys() throws {
    let c = Container()
    try c.register((any DIStore).self) { _ in DIMemoryStore(name: "default") }
    try c.register((any DIStore).self, name: "primary") { _ in DIMemoryStore(name: "primary") }
    #expect(try c.resolve((any DIStore).self).name == "default")
    #expect(try c.resolve((any DIStore).self, name: "primary").name == "primary")
    #expect(throws: ContainerError.self) { try c.resolve((any DIStore).self, name: "other") }
  }

  @Test func runtimeArgumentsAreTyped() throws {
    let c = Container()
    try c.register(DIGreeting.self) { (_, who: String, times: Int) in
      DIGreeting(who: who, times: times)
    }
    try c.register(DIGreeting.self) { (_, who: String) in DIGreeting(who: who, times: 1) }
    #expect(try c.resolve(DIGreeting.self, arguments: "ada", 2).text == "hi adahi ada")
    #expect(try c.resolve(DIGreeting.self, arguments: "bob").text == "hi bob")
    // Wrong argument types or no arguments: a different key.
    let error = #expect(throws: ContainerError.self) {
      try c.resolve(DIGreeting.self, arguments: 2, "ada")
    }
    #expect(error?.description.contains("with arguments (Swift.Int, Swift.String)") == true)
    #expect(throws: ContainerError.self) { try c.resolve(DIGreeting.self) }
  }

  @Test func providerObjectKeepsState() throws {
    let c = Container()
    try c.register(DIThing.self, provider: DISequenceProvider())
    #expect(try c.resolve(DIThing.self).id == 1)
    #expect(try c.resolve(DIThing.self).id == 2)
    #expect(c.bindings.map(\.kind.description) == ["provider"])
  }

  @Test func oneSingletonUnderSeveralProtocols() throws {
    let c = Container()
    let counter = DICounter()
    try c.register(DIMemoryStore.self, scope: .singleton) { _ in
      _ = counter.next()
      return DIMemoryStore()
    }
    .implements((any DIStore).self)
    .implements((any DILogger).self, name: "store-log")
    let store = try c.resolve((any DIStore).self)
    let log = try c.resolve((any DILogger).self, name: "store-log")
    #expect(store === log)
    #expect(store === (try c.resolve(DIMemoryStore.self)))
    #expect(counter.made.load(ordering: .relaxed) == 1)
  }

  @Test func aliasToANonConformingTypeFailsWhenResolved() throws {
    let c = Container()
    try c.register(DIMemoryLogger.self) { _ in DIMemoryLogger() }.implements((any DIStore).self)
    let error = #expect(throws: ContainerError.self) { try c.resolve((any DIStore).self) }
    #expect(
      error?.description
        == "ApiaryTests.DIMemoryLogger does not conform to ApiaryTests.DIStore, so it cannot be "
        + "bound to ApiaryTests.DIStore")
  }

  @Test func instanceAliasIsCheckedAtRegistration() throws {
    let c = Container()
    let handle = try c.register(DIMemoryLogger.self, instance: DIMemoryLogger())
    #expect(throws: ContainerError.self) { try handle.implements((any DIStore).self) }
    #expect(!c.isBound((any DIStore).self))
    try handle.implements((any DILogger).self)
    #expect(c.isBound((any DILogger).self))
  }

  @Test func duplicateKeyIsAnErrorNamingBothOwners() throws {
    let c = Container()
    try c.owned(by: "store").register((any DIStore).self) { _ in DIMemoryStore() }
    let error = #expect(throws: ContainerError.self) {
      try c.owned(by: "notes").register((any DIStore).self) { _ in DIMemoryStore() }
    }
    #expect(
      error?.description
        == "ApiaryTests.DIStore is already bound by module 'store'; module 'notes' cannot bind it "
        + "again: use a different name, or register with override: true to replace it")
  }

  @Test func explicitOverrideReplaces() throws {
    let c = Container()
    try c.register((any DIStore).self) { _ in DIMemoryStore(name: "old") }
    try c.register((any DIStore).self, override: true) { _ in DIMemoryStore(name: "new") }
    #expect(try c.resolve((any DIStore).self).name == "new")
    #expect(c.bindings.count == 1)
  }

  @Test func factoryErrorsAreWrappedWithTheKey() throws {
    let c = Container()
    try c.register((any DIStore).self, name: "disk") { _ in throw DIFactoryFailure() }
    let error = #expect(throws: ContainerError.self) {
      try c.resolve((any DIStore).self, name: "disk")
    }
    #expect(error?.description == "creating ApiaryTests.DIStore named \"disk\" failed: disk full")
  }

  @Test func inspectionIsSortedAndComplete() throws {
    let c = Container()
    try c.owned(by: "notes").register(DINotesService.self) { r in
      DINotesService(store: try r.resolve(), log: try r.resolve())
    }
    try c.register((any DIStore).self, name: "b", scope: .singleton) { _ in DIMemoryStore() }
    try c.register((any DIStore).self, name: "a", scope: .weak) { _ in DIMemoryStore() }
      .implements((any DILogger).self)
    let infos = c.bindings
    #expect(
      infos.map(\.key.description) == [
        "ApiaryTests.DILogger", "ApiaryTests.DINotesService", "ApiaryTests.DIStore named \"a\"",
        "ApiaryTests.DIStore named \"b\"",
      ])
    #expect(infos.map(\.owner) == [nil, "notes", nil, nil])
    #expect(infos.map(\.scope) == [.transient, .transient, .weak, .singleton])
    #expect(infos[0].kind.description == "alias of ApiaryTests.DIStore named \"a\"")
    #expect(infos[1].description.contains("owner notes"))
  }
}
