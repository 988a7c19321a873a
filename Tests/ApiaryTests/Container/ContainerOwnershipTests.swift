import Testing

@testable import Apiary
@testable import ApiaryContainer

@Suite struct ContainerOwnershipTests {
  @Test func removeAllUnbindsAndReleasesAModulesSingletons() throws {
    let root = Container()
    let store = root.owned(by: "store")
    try store.register(DIMemoryStore.self, scope: .singleton) { _ in DIMemoryStore() }
      .implements((any DIStore).self)
    try store.bind(
      ServiceManifest(
        protocolName: "ApiaryTests.DIStore", implementation: "ApiaryTests.DIFileStore",
        name: "file"), catalog: TypeCatalog())
    try root.owned(by: "logging").register((any DILogger).self) { _ in DIMemoryLogger() }
    weak var released: DIMemoryStore?
    do {
      let instance = try root.resolve(DIMemoryStore.self)
      released = instance
    }
    #expect(released != nil)
    root.removeAll(ownedBy: "store")
    #expect(released == nil)
    #expect(!root.isBound((any DIStore).self) && !root.isBound(DIMemoryStore.self))
    #expect(root.bindings.map(\.owner) == ["logging"])
  }

  @Test func holdersKeepWorkingAfterUnload() throws {
    let root = Container()
    try root.owned(by: "store").register((any DIStore).self, scope: .singleton) { _ in
      DIMemoryStore(name: "kept")
    }
    try root.owned(by: "notes").register(DINotesService.self, scope: .singleton) { r in
      DINotesService(store: try r.resolve(), log: DIMemoryLogger())
    }
    let notes = try root.resolve(DINotesService.self)
    root.removeAll(ownedBy: "store")
    #expect(notes.store.name == "kept")
    #expect(try root.resolve(DINotesService.self) === notes)
    // Re-registering after unload works (a module reloaded).
    try root.owned(by: "store").register((any DIStore).self) { _ in DIMemoryStore(name: "new") }
    #expect(try root.resolve((any DIStore).self).name == "new")
  }

  @Test func removingAnUnknownOwnerChangesNothing() throws {
    let root = Container()
    try root.register(DIThing.self) { _ in DIThing(id: 1) }
    root.removeAll(ownedBy: "nobody")
    #expect(root.bindings.count == 1)
  }
}
