import Testing

@testable import Apiary
@testable import ApiaryContainer

@Suite struct ContainerManifestTests {
  private let catalog = TypeCatalog()

  private func container() throws -> Container {
    let c = Container()
    try c.register((any DILogger).self, scope: .singleton) { _ in DIMemoryLogger() }
    try c.register((any DILogger).self, name: "audit", scope: .singleton) { _ in
      DIMemoryLogger()
    }
    return c
  }

  private func service(
    _ protocolName: String = "ApiaryTests.DIStore",
    _ implementation: String = "ApiaryTests.DIFileStore", scope: Scope = .singleton
  ) -> ServiceManifest {
    ServiceManifest(
      protocolName: protocolName, implementation: implementation, scope: scope,
      source: SourceLocation(file: "store.json", keyPath: "modules[0].services[0]"))
  }

  @Test func bindsAProtocolByNameToAnInjectableClass() throws {
    let c = try container()
    try c.owned(by: "store").bind(service(), catalog: catalog)
    let store = try c.resolve((any DIStore).self)
    #expect(store.name == "file")
    #expect(store === (try c.resolve((any DIStore).self)))
    let file = try #require(store as? DIFileStore)
    #expect(file.log === (try c.resolve((any DILogger).self)))
    #expect(file.audit === (try c.resolve((any DILogger).self, name: "audit")))
    #expect(file.didInjectCalls == 1)
    let info = try #require(c.bindings.first { $0.owner == "store" })
    #expect(info.kind.description == "manifest → ApiaryTests.DIFileStore")
    #expect(info.source?.keyPath == "modules[0].services[0]")
  }

  @Test func scopeAndNameComeFromTheManifest() throws {
    let c = try container()
    var entry = service(scope: .transient)
    entry.name = "scratch"
    try c.bind(entry, catalog: catalog)
    #expect(
      try c.resolve((any DIStore).self, name: "scratch")
        !== c.resolve(
          (any DIStore).self, name: "scratch"))
  }

  @Test func mismatchIsReportedWhenBoundNamingBothAndTheSource() throws {
    let c = try container()
    let error = #expect(throws: ContainerError.self) {
      try c.bind(service("ApiaryTests.DIStore", "ApiaryTests.DIWrongStore"), catalog: catalog)
    }
    #expect(
      error?.description
        == "store.json modules[0].services[0]: ApiaryTests.DIWrongStore does not conform to "
        + "ApiaryTests.DIStore, so it cannot be bound to ApiaryTests.DIStore")
    #expect(!c.isBound((any DIStore).self))
    #expect(throws: ContainerError.self) {
      try c.check(service("ApiaryTests.DIStore", "ApiaryTests.DIWrongStore"), catalog: catalog)
    }
    try c.check(service("ApiaryTests.DIStore", "ApiaryTests.DIFileStore"), catalog: catalog)
    // A class protocol, a class and a composition are checked too.
    try c.check(
      service("ApiaryTests.DIBaseService", "ApiaryTests.DIDerivedService"), catalog: catalog)
    #expect(throws: ContainerError.self) {
      try c.check(service("ApiaryTests.DIBaseService", "ApiaryTests.DIFileStore"), catalog: catalog)
    }
  }

  @Test func unknownNamesAreReportedWithTheSource() throws {
    let c = try container()
    let missingProtocol = #expect(throws: ContainerError.self) {
      try c.bind(service("ApiaryTests.NoSuchProtocol"), catalog: catalog)
    }
    #expect(
      missingProtocol?.description
        == "store.json modules[0].services[0]: service protocol type 'ApiaryTests.NoSuchProtocol' "
        + "was not found; expected 'ModuleName.TypeName' of a type linked into the application")
    let missingImplementation = #expect(throws: ContainerError.self) {
      try c.bind(service("ApiaryTests.DIStore", "Nowhere.Store"), catalog: catalog)
    }
    #expect(missingImplementation?.description.contains("'Nowhere.Store'") == true)
    let notInjectable = #expect(throws: ContainerError.self) {
      try c.bind(service("ApiaryTests.DIStore", "ApiaryTests.DIPlainClass"), catalog: catalog)
    }
    #expect(
      notInjectable?.description
        == "store.json modules[0].services[0]: implementation 'ApiaryTests.DIPlainClass' must be "
        + "a class conforming to Injectable (init(resolver:))")
  }

  @Test func catalogRegistrationsAreUsed() throws {
    let catalog = TypeCatalog()
    catalog.register((any DIStore).self, as: "Custom.Store")
    catalog.register(DIFileStore.self, as: "Custom.FileStore")
    let c = Container()
    try c.register((any DILogger).self) { _ in DIMemoryLogger() }
    try c.register((any DILogger).self, name: "audit") { _ in DIMemoryLogger() }
    try c.bind(service("Custom.Store", "Custom.FileStore"), catalog: catalog)
    #expect(try c.resolve((any DIStore).self).name == "file")
  }

  @Test func duplicateManifestServiceIsRefused() throws {
    let c = try container()
    try c.owned(by: "a").bind(service(), catalog: catalog)
    #expect(throws: ContainerError.self) { try c.owned(by: "b").bind(service(), catalog: catalog) }
  }
}
