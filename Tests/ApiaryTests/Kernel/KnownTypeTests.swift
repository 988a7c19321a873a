import Testing

@testable import Apiary
@testable import ApiaryKernel

/// A plugin's exported module and target types are registered with the conformances the
/// exports prove, and the kernel and the mediator take them from the catalog, not the runtime.
@Suite("Kernel: conformances registered with a type")
struct KnownTypeTests {
  @Test func aRegisteredModuleTypeIsKnownAsAModule() {
    let catalog = TypeCatalog()
    catalog.register(module: ValidNotesModule.self, as: "Plugin.Module")
    #expect(catalog.lookup("Plugin.Module") == ValidNotesModule.self)
    #expect(catalog.lookup("Plugin.Module", knownAs: KnownModule.self)?.known != nil)
    #expect(catalog.moduleType(named: "Plugin.Module") == ValidNotesModule.self)
    #expect(catalog.targetType(named: "Plugin.Module") == nil)
  }

  @Test func aRegisteredTargetTypeIsKnownAsATargetAndAnActionTarget() {
    let catalog = TypeCatalog()
    catalog.register(target: CalcTarget.self, as: "Plugin.Target")
    #expect(catalog.lookup("Plugin.Target") == CalcTarget.self)
    #expect(
      catalog.lookup("Plugin.Target", knownAs: KnownTarget.self)?.known?.type == CalcTarget.self)
    #expect(
      catalog.lookup("Plugin.Target", knownAs: KnownActionTarget.self)?.known?.type
        == CalcTarget.self)
    #expect(catalog.targetType(named: "Plugin.Target") == CalcTarget.self)
    #expect(catalog.moduleType(named: "Plugin.Target") == nil)
  }

  /// What a type is registered as answers first: a type registered as another one is taken as
  /// that one (no real registration does this; it shows the runtime is not asked).
  @Test func whatATypeIsKnownAsAnswersBeforeTheRuntime() {
    let catalog = TypeCatalog()
    catalog.register(NotAModuleClass.self, as: "Plain")
    #expect(catalog.moduleType(named: "Plain") == nil)
    catalog.register(
      NotAModuleClass.self, as: "Plain", knownAs: [KnownModule(type: ValidNotesModule.self)])
    #expect(catalog.lookup("Plain") == NotAModuleClass.self)
    #expect(catalog.moduleType(named: "Plain") == ValidNotesModule.self)
    #expect(catalog.targetType(named: "Plain") == nil)
  }

  @Test func typesRegisteredPlainlyOrFoundByTheRuntimeAreAskedOfTheRuntime() {
    let catalog = TypeCatalog()
    catalog.register(CalcTarget.self, as: "Plain.Target")
    #expect(catalog.lookup("Plain.Target", knownAs: KnownTarget.self)?.known == nil)
    #expect(catalog.targetType(named: "Plain.Target") == CalcTarget.self)
    #expect(catalog.moduleType(named: "ApiaryTests.ValidNotesModule") == ValidNotesModule.self)
    #expect(catalog.moduleType(named: "ApiaryTests.NotAModuleClass") == nil)
    #expect(catalog.moduleType(named: "ApiaryTests.NoSuchType") == nil)
  }
}
