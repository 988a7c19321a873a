import Testing

@testable import Apiary
@testable import ApiaryContainer

@Suite struct ContainerKeyTests {
  @Test func serviceKeyDescriptions() {
    #expect(ServiceKey((any DIStore).self).description == "ApiaryTests.DIStore")
    #expect(
      ServiceKey(DIThing.self, name: "x", arguments: (String, Int).self).description
        == "ApiaryTests.DIThing named \"x\" with arguments (Swift.String, Swift.Int)")
    #expect(ServiceKey(DIThing.self) == ServiceKey(DIThing.self))
    #expect(ServiceKey(DIThing.self) != ServiceKey(DIThing.self, name: "x"))
  }

  @Test func bindingKeysWithEqualPartsAreEqualAndHashAlike() {
    let plain = BindingKey(DIThing.self, name: nil, arguments: Void.self)
    let named = BindingKey(DIThing.self, name: "a", arguments: Void.self)
    let withArguments = BindingKey(DIThing.self, name: nil, arguments: Int.self)
    let keys: Set = [plain, named, withArguments, plain]
    #expect(keys.count == 3)
    #expect(
      plain._rawHashValue(seed: 7)
        == BindingKey(DIThing.self, name: nil, arguments: Void.self)._rawHashValue(seed: 7))
    #expect(
      Set((0..<500).map { BindingKey(DIThing.self, name: "\($0)", arguments: Void.self) }).count
        == 500)
  }

  @Test func cyclePathNamesNamedBindings() throws {
    let c = Container()
    try c.register(DIThing.self, name: "a") { r in try r.resolve(DIThing.self, name: "b") }
    try c.register(DIThing.self, name: "b") { r in try r.resolve(DIThing.self, name: "a") }
    let error = #expect(throws: ContainerError.self) { try c.resolve(DIThing.self, name: "a") }
    #expect(
      error?.description.hasPrefix(
        "dependency cycle: ApiaryTests.DIThing named \"a\" → ApiaryTests.DIThing named \"b\" → "
          + "ApiaryTests.DIThing named \"a\";") == true)
  }

  @Test func weakInstanceIsSharedWithChildren() throws {
    let parent = Container()
    try parent.register(DIThing.self, scope: .weak) { _ in DIThing(id: 1) }
    let held = try parent.resolve(DIThing.self)
    #expect(try parent.child().resolve(DIThing.self) === held)
  }

  @Test func reloadedModuleGetsItsEagerSingletonRebuilt() throws {
    let root = Container()
    let counter = DICounter()
    let register = {
      try root.owned(by: "store").register(DIThing.self, scope: .singleton, eager: true) { _ in
        DIThing(id: counter.next())
      }
    }
    _ = try register()
    try root.buildEagerSingletons()
    root.removeAll(ownedBy: "store")
    _ = try register()
    try root.buildEagerSingletons()
    #expect(counter.made.load(ordering: .relaxed) == 2)
    #expect(try root.resolve(DIThing.self).id == 2)
  }
}
