import Foundation
import Testing

@testable import Apiary
@testable import ApiaryManifest

/// `activation` and `activationEvents`: decoding, and what `validate` says about them.
@Suite("Manifest: activation")
struct ActivationManifestTests {
  let catalog: TypeCatalog = {
    let catalog = TypeCatalog()
    catalog.register(ValidNotesModule.self, as: "T.M")
    return catalog
  }()

  func problems(_ text: String) -> [ManifestProblem] {
    let decoded = decodeModules(text, file: "m.json")
    return decoded.problems
      + ManifestLoader.validate(application: nil, modules: decoded.modules, catalog: catalog)
  }

  @Test func decodesActivationAndEvents() {
    let decoded = decodeModules(
      """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "T.M", "activation": "lazy", "activationEvents": ["note.saved"]},
        {"name": "b", "type": "T.M", "activation": "background"},
        {"name": "c", "type": "T.M"}
      ]}
      """, file: "m.json")
    #expect(decoded.problems.isEmpty)
    #expect(decoded.modules.map(\.activation) == [.lazy, .background, .eager])
    #expect(decoded.modules[0].activationEvents == ["note.saved"])
    #expect(decoded.modules.map(\.isLazy) == [true, true, false])
  }

  @Test func aMisspelledActivationGetsASuggestion() {
    let found = problems(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T.M", "activation": "lazzy"}]}"#)
    #expect(found.map(\.kind) == [.invalidValue])
    #expect(found.first?.description.contains("modules[0].activation") == true)
    #expect(found.first?.description.contains("did you mean 'lazy'?") == true, "\(found)")
  }

  @Test func aLazyModuleWithoutATriggerIsReportedWhereItIsDeclared() {
    let found = problems(
      """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "T.M", "activation": "lazy"}
      ]}
      """)
    #expect(found.map(\.kind) == [.noActivationTrigger])
    #expect(found.first?.description.hasPrefix("m.json:2:3 modules[0].activation: ") == true)
    #expect(found.first?.message.contains("declare the services and targets") == true)
  }

  /// A dependent starts a lazy module that declares nothing (an eager one at boot, a lazy one
  /// when it wakes), so only one no enabled module depends on is reported.
  @Test func aLazyModuleSomeModuleDependsOnNeedsNoTrigger() {
    let found = problems(
      """
      {"schemaVersion": 1, "modules": [
        {"name": "lz", "type": "T.M", "activation": "lazy"},
        {"name": "up", "type": "T.M", "dependencies": ["lz"]},
        {"name": "lw", "type": "T.M", "activation": "lazy"},
        {"name": "ev", "type": "T.M", "activation": "lazy", "activationEvents": ["x"],
         "dependencies": ["lw"]},
        {"name": "alone", "type": "T.M", "activation": "lazy", "dependencies": ["alone"]},
        {"name": "off", "type": "T.M", "activation": "lazy"},
        {"name": "no", "type": "T.M", "enabled": false, "dependencies": ["off"]}
      ]}
      """)
    #expect(found.map(\.kind) == [.selfDependency, .noActivationTrigger, .noActivationTrigger])
    #expect(
      found.dropFirst().map(\.location.keyPath) == [
        "modules[4].activation", "modules[5].activation",
      ])
    #expect(found.last?.message.contains("no module depends on it") == true, "\(found)")
  }

  @Test func activationEventsOnAnEagerModuleAreReported() {
    let found = problems(
      """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "T.M", "activationEvents": ["x"]}
      ]}
      """)
    #expect(found.map(\.kind) == [.invalidValue])
    #expect(found.first?.message.contains(#"add "activation": "lazy""#) == true)
  }

  @Test func aLazyModuleWithAnEventOrABackgroundStartIsFine() {
    #expect(
      problems(
        """
        {"schemaVersion": 1, "modules": [
          {"name": "a", "type": "T.M", "activation": "lazy", "activationEvents": ["x"]},
          {"name": "b", "type": "T.M", "activation": "background"}
        ]}
        """
      ).isEmpty)
  }
}
