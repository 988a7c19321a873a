import Testing

@testable import Apiary

/// Issue 10's container items: Lazy in its graph, restoring what an override or a child's
/// binding hid, the chain in "no binding", runtime arguments everywhere, ranked providers and
/// reset.
@Suite struct ContainerRegistryTests {
  @Test func lazyResolvesInTheGraphItWasMadeIn() throws {
    let c = Container()
    let counter = DICounter()
    try c.register(DIThing.self, scope: .graph) { _ in DIThing(id: counter.next()) }
    try c.register(DIGraphHolder.self) { r in DIGraphHolder(thing: try r.resolve(), later: r.lazy())
    }
    let holder = try c.resolve(DIGraphHolder.self)
    // First used after the resolve returned: still the graph's instance.
    #expect(try holder.later.get() === holder.thing)
    // Another graph gets another instance, and its Lazy follows it.
    let other = try c.resolve(DIGraphHolder.self)
    #expect(other.thing !== holder.thing)
    #expect(try other.later.get() === other.thing)
    // A Lazy made outside any resolve starts its own graph.
    #expect(try c.lazy(DIThing.self).get() !== holder.thing)
  }

  @Test func removingAnOverridingModuleRestoresTheBindingItReplaced() throws {
    let root = Container()
    try root.register((any DIStore).self, scope: .singleton) { _ in DIMemoryStore(name: "default") }
    let original = try root.resolve((any DIStore).self)
    try root.owned(by: "plugin").register((any DIStore).self, override: true) { _ in
      DIMemoryStore(name: "plugin")
    }
    #expect(try root.resolve((any DIStore).self).name == "plugin")
    root.removeAll(ownedBy: "plugin")
    // The default is back, with the singleton it had already built.
    #expect(try root.resolve((any DIStore).self) === original)
    #expect(root.bindings.count == 1)
  }

  @Test func anOwnerReplacingItsOwnBindingKeepsNothingBack() throws {
    let root = Container()
    let plugin = root.owned(by: "plugin")
    try plugin.register((any DIStore).self) { _ in DIMemoryStore(name: "first") }
    try plugin.register((any DIStore).self, override: true) { _ in DIMemoryStore(name: "second") }
    root.removeAll(ownedBy: "plugin")
    #expect(!root.isBound((any DIStore).self))
  }

  @Test func derivedWithoutAModuleFallsBackToWhatItShadowed() throws {
    let root = Container()
    try root.register((any DIStore).self) { _ in DIMemoryStore(name: "default") }
    // A child's module binding shadows the application's.
    let child = root.child()
    try child.owned(by: "plugin").register((any DIStore).self) { _ in
      DIMemoryStore(name: "plugin")
    }
    #expect(try child.resolve((any DIStore).self).name == "plugin")
    let without = child.derived(removing: ["plugin"])
    #expect(try without.resolve((any DIStore).self).name == "default")
    // An override through a module, then derived without it.
    try root.owned(by: "other").register((any DIStore).self, override: true) { _ in
      DIMemoryStore(name: "other")
    }
    #expect(try root.resolve((any DIStore).self).name == "other")
    #expect(try root.derived(removing: ["other"]).resolve((any DIStore).self).name == "default")
  }

  @Test func noBindingNamesTheChainAndTheProperty() throws {
    let c = Container()
    try c.register(DINotesService.self) { r in
      DINotesService(store: try r.resolve(), log: try r.resolve())
    }
    try c.register((any DIStore).self) { _ in DIMemoryStore() }
    try c.register(DINotesScreen.self) { r in DINotesScreen(notes: try r.resolve()) }
    let error = #expect(throws: ContainerError.self) { try c.resolve(DINotesScreen.self) }
    guard case .notBound(let key, let nearby)? = error?.details else {
      Issue.record("expected notBound, got \(String(describing: error))")
      return
    }
    #expect(key == ServiceKey((any DILogger).self))
    #expect(nearby.requiredBy == [ServiceKey(DINotesScreen.self), ServiceKey(DINotesService.self)])
    #expect(
      error?.description.hasPrefix(
        "no binding for ApiaryTests.DILogger (needed by while building "
          + "ApiaryTests.DINotesScreen → ApiaryTests.DINotesService)") == true)
    // An @Injected property is named with its owner.
    let injected = #expect(throws: ContainerError.self) { try c.make(DIPropertyUser.self) }
    #expect(
      injected?.description.hasPrefix(
        "no binding for ApiaryTests.DILogger named \"audit\" (needed by property 'audit' of "
          + "ApiaryTests.DIPropertyUser)") == true)
    // A top-level miss says nothing about a chain.
    let plain = #expect(throws: ContainerError.self) { try c.resolve((any DILogger).self) }
    #expect(plain?.description.contains("needed by") == false)
  }

  @Test func runtimeArgumentsWorkThroughAliasesLazyProviderAndOptional() throws {
    let c = Container()
    try c.register(DIGreeting.self) { (_, who: String, times: Int) in
      DIGreeting(who: who, times: times)
    }
    .implements((any CustomStringConvertible).self)
    let alias = try c.resolve((any CustomStringConvertible).self, arguments: "Ada", 2)
    #expect(alias.description == "hi Adahi Ada")
    #expect(try c.lazy(DIGreeting.self, arguments: "Bo", 1).get().text == "hi Bo")
    #expect(try c.provider(DIGreeting.self, arguments: "Cy", 1).get().text == "hi Cy")
    #expect(try c.optional(DIGreeting.self, arguments: "Di", 1)?.text == "hi Di")
    #expect(try c.optional(DIGreeting.self, arguments: "Di") == nil)
    // Without the arguments the alias is not bound: it is keyed by them too.
    #expect(!c.isBound((any CustomStringConvertible).self))
  }

  @Test func rankedProvidersResolveHighestRankThenEarliest() throws {
    let root = Container()
    try root.owned(by: "a").register((any DIStore).self, rank: 1) { _ in DIMemoryStore(name: "a") }
    try root.owned(by: "b").register((any DIStore).self, rank: 5) { _ in DIMemoryStore(name: "b") }
    try root.owned(by: "c").register((any DIStore).self, rank: 5) { _ in DIMemoryStore(name: "c") }
    #expect(try root.resolve((any DIStore).self).name == "b")
    #expect(try root.resolveAll((any DIStore).self).map(\.name) == ["b", "c", "a"])
    root.removeAll(ownedBy: "b")
    #expect(try root.resolve((any DIStore).self).name == "c")
    #expect(root.bindings.map(\.rank) == [1, 5])
    // An unranked binding stays the only one of its key.
    let error = #expect(throws: ContainerError.self) {
      try root.register((any DIStore).self) { _ in DIMemoryStore(name: "plain") }
    }
    #expect(error?.description.contains("already bound") == true)
    try root.register((any DILogger).self) { _ in DIMemoryLogger() }
    #expect(throws: ContainerError.self) {
      try root.register((any DILogger).self, rank: 3) { _ in DIMemoryLogger() }
    }
    #expect(try root.resolveAll((any DILogger).self).count == 1)
    #expect(try root.resolveAll(DIThing.self).isEmpty)
  }

  @Test func manifestServicesMayDeclareARank() throws {
    let c = Container()
    try c.register((any DILogger).self) { _ in DIMemoryLogger() }
    try c.register((any DILogger).self, name: "audit") { _ in DIMemoryLogger() }
    try c.owned(by: "low").bind(
      ServiceManifest(
        protocolName: "ApiaryTests.DIStore", implementation: "ApiaryTests.DIFileStore", rank: 1),
      catalog: TypeCatalog())
    try c.owned(by: "high").register((any DIStore).self, rank: 2) { _ in DIMemoryStore() }
    #expect(try c.resolveAll((any DIStore).self).map(\.name) == ["memory", "file"])
  }

  @Test func resetDropsBuiltSingletonsButKeepsBindingsAndInstances() throws {
    let c = Container()
    let counter = DICounter()
    try c.register(DIThing.self, scope: .singleton) { _ in DIThing(id: counter.next()) }
    try c.register(DIThing.self, name: "other", scope: .singleton) { _ in
      DIThing(id: counter.next())
    }
    let fixed = DIMemoryStore(name: "fixed")
    try c.register((any DIStore).self, instance: fixed)
    let first = try c.resolve(DIThing.self)
    let other = try c.resolve(DIThing.self, name: "other")
    c.resetSingletons(of: DIThing.self)
    #expect(try c.resolve(DIThing.self) !== first)
    #expect(try c.resolve(DIThing.self, name: "other") === other)
    c.resetSingletons()
    #expect(try c.resolve(DIThing.self, name: "other") !== other)
    #expect(try c.resolve((any DIStore).self) === fixed)
    #expect(counter.made.load(ordering: .relaxed) == 4)
  }
}

final class DIGraphHolder {
  let thing: DIThing
  let later: Lazy<DIThing>
  init(thing: DIThing, later: Lazy<DIThing>) {
    self.thing = thing
    self.later = later
  }
}

final class DINotesScreen {
  let notes: DINotesService
  init(notes: DINotesService) { self.notes = notes }
}

final class DIPropertyUser: Injectable {
  @Injected(name: "audit") var audit: any DILogger
  init(resolver: Resolver) throws {}
}

extension DIGreeting: CustomStringConvertible {
  var description: String { text }
}
