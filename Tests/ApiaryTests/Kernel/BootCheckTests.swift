import Testing

@testable import Apiary

/// A class that is neither Injectable nor a Target.
final class PlainClass {}

@Suite struct BootCheckTests {
  static let catalog: TypeCatalog = {
    let catalog = TypeCatalog()
    catalog.register(ScriptedModule.self, as: "Test.Scripted")
    catalog.register(PlainClass.self, as: "Test.Plain")
    catalog.register(CalcTarget.self, as: "Test.Calc")
    return catalog
  }()

  static func module(
    _ name: String, journal: String, isOptional: Bool = false,
    services: [ServiceManifest] = [], targets: [TargetManifest] = []
  ) -> ModuleManifest {
    var module = Fixture.module(name, journal: journal, isOptional: isOptional)
    module.services = services
    module.targets = targets
    module.source = SourceLocation(file: "m.json", keyPath: "modules[0]")
    return module
  }

  static let unlinkable: (services: [ServiceManifest], targets: [TargetManifest]) = (
    [ServiceManifest(protocolName: "Test.Plain", implementation: "Test.Plain")],
    [
      TargetManifest(name: "plain", type: "Test.Plain"),
      TargetManifest(
        name: "calc", type: "Test.Calc",
        actions: [ActionManifest(name: "add"), ActionManifest(name: "subtract")]),
    ]
  )

  @Test func reportsWhatCannotBootWithoutRunningModuleCode() {
    let module = Self.module(
      "a", journal: Journal.new(), services: Self.unlinkable.services,
      targets: Self.unlinkable.targets)
    #expect(
      BootCheck.problems([module], catalog: Self.catalog).map(\.description) == [
        "m.json modules[0].services[0].implementation: service implementation 'Test.Plain' is "
          + "not Injectable; expected a final class conforming to Apiary.Injectable with "
          + "init(resolver:)",
        "m.json modules[0].targets[0].type: type 'Test.Plain' of target 'plain' is not a Target; "
          + "expected a final class conforming to Apiary.Target",
        "m.json modules[0].targets[1].actions[1]: target 'calc' (Test.Calc) does not implement "
          + "action 'subtract'; it implements add, apply, count, echo, fail, greet, id, keys, "
          + "scale, slow",
      ])
  }

  @Test func bootFailsBeforeAnySetUpWhenARequiredModuleCannotBeLinked() async throws {
    let journal = Journal.new()
    let kernel = try Kernel(
      application: Fixture.application,
      modules: [
        Self.module("first", journal: journal),
        Self.module("broken", journal: journal, targets: Self.unlinkable.targets),
      ],
      catalog: Self.catalog)
    await #expect {
      try await kernel.boot()
    } throws: { error in
      guard case .invalidManifests(let problems)? = (error as? KernelError)?.details else {
        return false
      }
      return problems.map(\.kind) == [.notLinkable, .notLinkable]
    }
    #expect(Journal.read(journal).isEmpty)
  }

  @Test func requiredProblemsOfDormantAndEagerModulesFailTheBootTogetherInPlanOrder() async throws {
    let journal = Journal.new()
    var lazy = Self.module("lazy", journal: journal, services: Self.unlinkable.services)
    lazy.activation = .lazy
    lazy.activationEvents = ["ping"]
    var eager = Self.module("eager", journal: journal, services: Self.unlinkable.services)
    eager.source = SourceLocation(file: "n.json", keyPath: "modules[0]")
    let kernel = try Kernel(
      application: Fixture.application, modules: [lazy, eager], catalog: Self.catalog)
    await #expect {
      try await kernel.boot()
    } throws: { error in
      guard case .invalidManifests(let problems)? = (error as? KernelError)?.details else {
        return false
      }
      return problems.map { String($0.description.prefix(6)) } == ["m.json", "n.json"]
    }
    #expect(await kernel.state(of: "lazy") == .planned, "not put to sleep")
    #expect(kernel.events.subscriptions.isEmpty)
    #expect(Journal.read(journal).isEmpty)
  }

  @Test func aDormantModuleWhoseTypeIsMissingFailsInLoad() async throws {
    let journal = Journal.new()
    var ghost = Self.module("ghost", journal: journal)
    (ghost.type, ghost.activation, ghost.activationEvents) = ("Nowhere.Ghost", .lazy, ["ping"])
    var optional = ghost
    (optional.name, optional.isOptional) = ("optional", true)
    let tolerant = try Kernel(
      application: Fixture.application, modules: [optional], catalog: Self.catalog)
    try await tolerant.boot()
    guard case .failed(.load, let reason)? = await tolerant.state(of: "optional") else {
      Issue.record("expected failed in load")
      return
    }
    #expect(reason.contains("Nowhere.Ghost"))
    #expect(tolerant.events.subscriptions.isEmpty)
    await tolerant.shutdown()
    let strict = try Kernel(
      application: Fixture.application, modules: [ghost], catalog: Self.catalog)
    await #expect {
      try await strict.boot()
    } throws: { error in
      (error as? KernelError)?.code == .unresolvedType && "\(error)".contains("Nowhere.Ghost")
    }
  }

  @Test func optionalModuleThatCannotBeLinkedFailsAlone() async throws {
    let journal = Journal.new()
    let kernel = try Kernel(
      application: Fixture.application,
      modules: [
        Self.module("first", journal: journal),
        Self.module(
          "broken", journal: journal, isOptional: true, services: Self.unlinkable.services),
      ],
      catalog: Self.catalog)
    try await kernel.boot()
    #expect(Journal.read(journal).contains("first.setUp"))
    #expect(!Journal.read(journal).contains("broken.setUp"))
    guard case .failed(let phase, let reason)? = await kernel.state(of: "broken") else {
      Issue.record("broken is not failed")
      return
    }
    #expect(phase == .load)
    #expect(reason.contains("is not Injectable"))
    await kernel.shutdown()
  }
}
