import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryMediator

/// Found by the naming convention: module type `ApiaryTests.CalcModule`, target `echo-box`.
final class EchoBoxTarget: Target {
  init(context: ModuleContext) throws {}
  static let actions: ActionTable<EchoBoxTarget> = [
    "say": .sync { _, params in params["text"] },
    "say": .sync { _, _ in "last one wins" },
  ]
}

@Suite struct RegistrationTests {
  private func add(_ target: TargetManifest, to mediator: Mediator, owner: String = "m")
    -> MediatorError?
  {
    mediatorError {
      try mediator.addTargets([target], owner: owner, context: Fixtures.context(mediator))
    }
  }

  private let empty = Mediator(scheme: "app", catalog: TypeCatalog())

  @Test func unknownTypeNamesModuleTargetAndType() {
    let error = add(TargetManifest(name: "t", type: "Nowhere.Thing"), to: empty)
    #expect(error == .typeNotFound(module: "m", target: "t", type: "Nowhere.Thing"))
    #expect(error?.description.contains("module 'm', target 't'") == true)
  }

  @Test func aTypeThatIsNotATargetIsRefused() {
    let error = add(TargetManifest(name: "t", type: "ApiaryTests.NotATarget"), to: empty)
    #expect(error == .notATarget(module: "m", target: "t", type: "ApiaryTests.NotATarget"))
  }

  @Test func aDeclaredActionTheTypeLacksIsRefused() {
    let manifest = TargetManifest(
      name: "d", type: "ApiaryTests.FallbackTarget", actions: [ActionManifest(name: "explode")])
    let error = add(manifest, to: empty)
    #expect(
      error
        == .actionNotImplemented(
          module: "m", target: "d", action: "explode", type: "ApiaryTests.FallbackTarget",
          implemented: ["notFound"]))
    #expect(empty.targets().isEmpty)
  }

  @Test func duplicateTargetsActionsAndParametersAreRefused() throws {
    let mediator = try Fixtures.mediator()
    #expect(
      add(Fixtures.calc, to: mediator, owner: "other")
        == .duplicateTarget(module: "other", target: "calc", existingOwner: "calc"))
    let twice = mediatorError {
      try empty.addTargets(
        [Fixtures.fallbackTarget, Fixtures.fallbackTarget], owner: "m",
        context: Fixtures.context(empty))
    }
    #expect(twice == .duplicateTarget(module: "m", target: "diagnostics", existingOwner: "m"))
    #expect(empty.targets().isEmpty)
    let action = ActionManifest(name: "notFound")
    #expect(
      add(
        TargetManifest(name: "d", type: "ApiaryTests.FallbackTarget", actions: [action, action]),
        to: empty)
        == .duplicateAction(module: "m", target: "d", action: "notFound"))
    let parameter = ParameterManifest(name: "p", kind: .int)
    let doubled = ActionManifest(name: "notFound", parameters: [parameter, parameter])
    #expect(
      add(
        TargetManifest(name: "d", type: "ApiaryTests.FallbackTarget", actions: [doubled]), to: empty
      )
        == .duplicateParameter(module: "m", target: "d", action: "notFound", key: "p"))
  }

  @Test func aDefaultOfTheWrongKindIsRefused() {
    let action = ActionManifest(
      name: "notFound", parameters: [ParameterManifest(name: "n", kind: .int, defaultValue: "ten")])
    let error = add(
      TargetManifest(name: "d", type: "ApiaryTests.FallbackTarget", actions: [action]), to: empty)
    #expect(
      error
        == .invalidDefault(
          module: "m", target: "d", action: "notFound", key: "n", expected: "int", found: "string"))
  }

  @Test func anEmptyTypeIsFoundByConvention() throws {
    let manifest = TargetManifest(
      name: "echo-box", type: "", actions: [ActionManifest(name: "say")])
    #expect(add(manifest, to: empty) == nil)
    #expect(try empty.perform(target: "echo-box", action: "say") as? String == "last one wins")
    #expect(empty.targets().first?.type == "ApiaryTests.EchoBoxTarget")
  }

  @Test func explicitlyRegisteredTypesWin() throws {
    let catalog = TypeCatalog()
    catalog.register(FallbackTarget.self, as: "Short.Name")
    let mediator = Mediator(scheme: "app", catalog: catalog)
    let manifest = TargetManifest(
      name: "d", type: "Short.Name", actions: [ActionManifest(name: "notFound")])
    #expect(add(manifest, to: mediator) == nil)
    #expect(mediator.hasAction(target: "d", action: "notFound"))
  }

  @Test func inspectionListsTargetsAndActionsSorted() throws {
    let mediator = try Fixtures.mediator(withFallback: true)
    let targets = mediator.targets()
    #expect(targets.map(\.name) == ["calc", "diagnostics"])
    #expect(targets.map(\.owner) == ["calc", "diagnostics"])
    let calc = try #require(targets.first)
    #expect(calc.actions.map(\.name) == calc.actions.map(\.name).sorted())
    #expect(calc.actions.first { $0.name == "add" }?.isRemote == true)
    #expect(calc.actions.first { $0.name == "apply" }?.isRemote == false)
    let text = calc.description
    #expect(text.hasPrefix("calc (module calc, ApiaryTests.CalcTarget)"))
    #expect(text.contains("  add(a: int, b: int = 10) -> int [remote]"))
    #expect(text.contains("  echo(value: any?) -> any [remote]"))
    #expect(text.contains("  fail() -> any [local]"))
  }
}
