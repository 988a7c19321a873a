import Foundation
import Testing

@testable import Apiary
@testable import ApiaryManifest

/// A module class for type resolution tests; found by the runtime as `ApiaryTests.ValidNotesModule`.
final class ValidNotesModule: Module {
  init() {}
}

/// A class that is not a module.
final class NotAModuleClass {}

/// A protocol and implementation for service type resolution.
protocol ValidatorTestService {}
final class ValidatorTestServiceImpl: ValidatorTestService {}

@Suite("Manifest: cross-validation")
struct ManifestValidatorTests {
  static let notFoundHint =
    "the module names no plugin 'library', so only the host's types were searched; expected a "
    + "type name written ModuleName.TypeName whose plugin is linked into the host (or registered "
    + "in the type catalog)"

  let catalog: TypeCatalog = {
    let catalog = TypeCatalog()
    catalog.register(ValidNotesModule.self, as: "T.M")
    catalog.register(NotAModuleClass.self, as: "T.NotModule")
    return catalog
  }()

  func module(
    _ name: String, _ dependencies: [String] = [], enabled: Bool = true, type: String = "T.M"
  ) -> ModuleManifest {
    ModuleManifest(name: name, type: type, dependencies: dependencies, isEnabled: enabled)
  }

  func validate(_ modules: [ModuleManifest]) -> [ManifestProblem] {
    ManifestLoader.validate(application: nil, modules: modules, catalog: catalog)
  }

  @Test func validModulesHaveNoProblems() {
    #expect(validate([module("a"), module("b", ["a"]), module("c", ["a", "b"])]).isEmpty)
  }

  @Test func duplicateModuleNamesNameBothLocations() {
    let text = """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "T.M"},
        {"name": "a", "type": "T.M"}
      ]}
      """
    let modules = decodeModules(text, file: "m.json").modules
    let problems = validate(modules)
    #expect(
      problems.map(\.description) == [
        "m.json:3:3 modules[1]: duplicate module name 'a'; first declared at m.json:2:3 modules[0]"
      ])
    #expect(problems.first?.kind == .duplicateName)
  }

  /// A module cannot depend on itself, so its own name is never the suggestion for an unknown
  /// dependency ('b' in module 'a' is close to 'a', and no other name is).
  @Test func anUnknownDependencyIsNotAnsweredWithTheModuleItself() {
    let problems = validate([module("a", ["b"])])
    #expect(
      problems.map(\.description) == [
        "module 'a' dependencies[0]: module 'a' depends on unknown module 'b'"
      ])
  }

  @Test func dependencyProblems() {
    let problems = validate([
      module("store"),
      module("search", ["stor", "search", "old", "zzzzzz"]),
      module("old", enabled: false),
      module("unused", ["nothing"], enabled: false),
    ])
    #expect(
      problems.map(\.description) == [
        "module 'search' dependencies[0]: module 'search' depends on unknown module 'stor' "
          + "(did you mean 'store'?)",
        "module 'search' dependencies[1]: module 'search' depends on itself",
        "module 'search' dependencies[2]: module 'search' depends on 'old', which is disabled; "
          + "enable 'old' or remove the dependency",
        "module 'search' dependencies[3]: module 'search' depends on unknown module 'zzzzzz'",
      ])
    #expect(
      problems.map(\.kind) == [
        .unknownDependency, .selfDependency, .disabledDependency, .unknownDependency,
      ])
  }

  @Test func cycleIsPrintedAsAPath() {
    let problems = validate([
      module("a", ["b"]), module("b", ["c"]), module("c", ["a"]), module("d", ["a"]),
    ])
    #expect(
      problems.map(\.message) == [
        "dependency cycle: a → b → c → a; remove one of these dependencies"
      ])
    #expect(problems.first?.kind == .dependencyCycle)
    #expect(problems.first?.location.keyPath == "dependencies[0]")
  }

  @Test func eachCycleIsReportedOnce() {
    let problems = validate([
      module("x", ["y"]), module("y", ["x", "z"]), module("z", ["y"]),
      module("p", ["q"]), module("q", ["p"]), module("free", ["x", "p"]),
    ])
    #expect(
      problems.map(\.message) == [
        "dependency cycle: x → y → x; remove one of these dependencies",
        "dependency cycle: p → q → p; remove one of these dependencies",
      ])
  }

  @Test func disabledModulesBreakNoCycleButAreReported() {
    let problems = validate([module("a", ["b"]), module("b", ["a"], enabled: false)])
    #expect(problems.map(\.kind) == [.disabledDependency])
  }

  @Test func cycleFinderOnGraphs() {
    #expect(ManifestValidator.cycles([[1], [2], [0]]) == [[0, 1, 2]])
    #expect(ManifestValidator.cycles([[1], [2], []]) == [])
    // Two cycles through 0 in one component: the shortest way back is reported.
    #expect(ManifestValidator.cycles([[1, 3], [2], [0], [0]]) == [[0, 3]])
    #expect(ManifestValidator.cycles([[], [2], [1], [4], [3]]) == [[1, 2], [3, 4]])
  }

  @Test func longChainsAndBigCyclesDoNotOverflow() {
    let count = 10_000
    let chain = (0..<count).map { module("m\($0)", $0 == 0 ? [] : ["m\($0 - 1)"]) }
    #expect(validate(chain).isEmpty)
    var ring = chain
    ring[0].dependencies = ["m\(count - 1)"]
    let problems = validate(ring)
    #expect(problems.count == 1)
    let message = problems.first?.message ?? ""
    #expect(message.hasPrefix("dependency cycle: m0 → m9999 → m9998 → "))
    #expect(message.contains("m1 → m0;"))
  }

  @Test func typeResolution() {
    let problems = validate([
      module("a", type: "NotesPlugin.NotesModul"),
      module("b", type: "T.NotModule"),
      module("c", type: "ApiaryTests.ValidNotesModule"),
      module("d", enabled: false, type: "NotesPlugin.NotesModul"),
    ])
    let expected: [String] = [
      "module 'a' type: module type 'NotesPlugin.NotesModul' not found; \(Self.notFoundHint)",
      "module 'b' type: type 'T.NotModule' is not a Module; expected a final class conforming "
        + "to Apiary.Module with an init()",
    ]
    #expect(problems.map(\.description) == expected)
    #expect(problems.map(\.kind) == [.typeNotFound, .notAModule])
  }

  /// A type not found names the module's plugin library (shortened when the shorter path is
  /// the same file) and the closest name the catalog knows; it used to say "not found" alone.
  @Test func typeNotFoundNamesTheLibrarySearchedAndTheClosestType() throws {
    let root = try ReadablePathTests.tree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let catalog = TypeCatalog()
    catalog.register(ValidNotesModule.self, as: "NotesPlugin.NotesModule")
    catalog.register(ValidatorTestServiceImpl.self, as: "NotesPlugin.NoteStoreImpl")
    var notes = ModuleManifest(name: "notes", type: "NotesPlugin.NotesModule")
    notes.plugin = PluginReference(
      library: "../plugins/libX.so", version: "1.0.0",
      source: SourceLocation(file: root + "/app/notes.json", keyPath: "modules[0].library"))
    notes.services = [
      ServiceManifest(
        protocolName: "ApiaryTests.ValidatorTestService",
        implementation: "NotesPlugin.NoteStoreImp")
    ]
    let problems = ManifestLoader.validate(
      application: nil, modules: [notes, module("bare", type: "NotesPlugin.NotesModul")],
      catalog: catalog)
    let expected: [String] = [
      "module 'notes' services[0].implementation: service implementation type "
        + "'NotesPlugin.NoteStoreImp' not found (did you mean 'NotesPlugin.NoteStoreImpl'?); "
        + "searched plugin library '\(root)/plugins/libX.so' (the module's 'library') and the "
        + "host's types; expected a type name written ModuleName.TypeName that the library or "
        + "the host declares",
      "module 'bare' type: module type 'NotesPlugin.NotesModul' not found (did you mean "
        + "'NotesPlugin.NotesModule'?); \(Self.notFoundHint)",
    ]
    #expect(problems.map(\.description) == expected)
  }

  @Test func typeProblemsFollowEachModulesDependencyProblems() {
    // The type check runs module by module; a name looked up once is reported at every use.
    let problems = validate([
      module("a", ["x"], type: "T.Missing"),
      module("b", enabled: false, type: "T.Missing"),
      module("c", ["b"], type: "T.Missing"),
      module("d", type: "T.M"),
    ])
    #expect(
      problems.map(\.kind) == [
        .unknownDependency, .typeNotFound, .disabledDependency, .typeNotFound,
      ])
    #expect(
      problems.map(\.location.file) == ["module 'a'", "module 'a'", "module 'c'", "module 'c'"])
  }

  @Test func runtimeFindsTestClassesByDottedName() {
    let catalog = TypeCatalog()
    #expect(catalog.lookup("ApiaryTests.ValidNotesModule") is any Module.Type)
    #expect(catalog.lookup("ApiaryTests.NotAModuleClass") != nil)
    #expect(!(catalog.lookup("ApiaryTests.NotAModuleClass") is any Module.Type))
    #expect(catalog.lookup("ApiaryTests.ValidatorTestService") != nil)
    #expect(catalog.lookup("ApiaryTests.NoSuchThing") == nil)
  }

  @Test func aRegistrationWinsOverWhatTheRuntimeFound() {
    let catalog = TypeCatalog()
    #expect(catalog.lookup("ApiaryTests.NotAModuleClass") == NotAModuleClass.self)
    catalog.register(ValidNotesModule.self, as: "ApiaryTests.NotAModuleClass")
    #expect(catalog.lookup("ApiaryTests.NotAModuleClass") == ValidNotesModule.self)
    catalog.register(NotAModuleClass.self, as: "ApiaryTests.ValidNotesModule")
    #expect(catalog.lookup("ApiaryTests.ValidNotesModule") == NotAModuleClass.self)
  }

  @Test func servicesAndTargetsResolveAndAreUnique() {
    var first = module("first")
    first.services = [
      ServiceManifest(
        protocolName: "ApiaryTests.ValidatorTestService",
        implementation: "ApiaryTests.ValidatorTestServiceImpl"),
      ServiceManifest(protocolName: "Missing.Proto", implementation: "Missing.Impl"),
    ]
    first.targets = [TargetManifest(name: "notes", type: "ApiaryTests.ValidNotesModule")]
    var second = module("second")
    second.services = [
      ServiceManifest(
        protocolName: "ApiaryTests.ValidatorTestService",
        implementation: "ApiaryTests.ValidatorTestServiceImpl"),
      ServiceManifest(
        protocolName: "ApiaryTests.ValidatorTestService",
        implementation: "ApiaryTests.ValidatorTestServiceImpl", name: "other"),
    ]
    second.targets = [TargetManifest(name: "notes", type: "Missing.Target")]
    let problems = validate([first, second])
    let expected: [String] = [
      "services[1].protocol: service protocol type 'Missing.Proto' not found; \(Self.notFoundHint)",
      "services[1].implementation: service implementation type 'Missing.Impl' not found; \(Self.notFoundHint)",
      "targets[0].type: target type 'Missing.Target' not found; \(Self.notFoundHint)",
      "services[0]: duplicate service 'ApiaryTests.ValidatorTestService'; first declared at "
        + "module 'first' services[0]; give one of them a different 'name', or give each a 'rank'",
      "targets[0]: duplicate target name 'notes'; first declared at module 'first' targets[0]",
    ]
    #expect(problems.map { "\($0.location.keyPath): \($0.message)" } == expected)
  }

  @Test func actionsAndParameters() {
    var notes = module("notes")
    notes.targets = [
      TargetManifest(
        name: "notes", type: "ApiaryTests.ValidNotesModule",
        actions: [
          ActionManifest(
            name: "create",
            parameters: [
              ParameterManifest(name: "title", kind: .string, isRequired: true, defaultValue: "x"),
              ParameterManifest(name: "count", kind: .int, defaultValue: 2.0),
              ParameterManifest(name: "ratio", kind: .double, defaultValue: 2),
              ParameterManifest(name: "tags", kind: .array, defaultValue: ["a"]),
              ParameterManifest(name: "meta", kind: .object, defaultValue: [:]),
              ParameterManifest(name: "any", kind: .any, defaultValue: nil),
              ParameterManifest(name: "flag", kind: .bool, defaultValue: "yes"),
              ParameterManifest(name: "title", kind: .int, defaultValue: 1.5),
            ]),
          ActionManifest(name: "create"),
        ])
    ]
    let problems = validate([notes])
    let expected: [String] = [
      "targets[0].actions[0].parameters[0].default: parameter 'title' is required and has a "
        + #"default; remove the default or set "required": false"#,
      // An integer is written without a fraction, as in every integer field.
      "targets[0].actions[0].parameters[1].default: default of parameter 'count' expected int, "
        + "found number",
      "targets[0].actions[0].parameters[6].default: default of parameter 'flag' expected bool, "
        + "found string",
      "targets[0].actions[0].parameters[7]: duplicate parameter name 'title' in action 'create'",
      "targets[0].actions[0].parameters[7].default: default of parameter 'title' expected int, "
        + "found number",
      "targets[0].actions[1]: duplicate action name 'create' in target 'notes'",
    ]
    #expect(problems.map { "\($0.location.keyPath): \($0.message)" } == expected)
  }

  @Test func repeatedNamesShortAndLong() {
    #expect(ManifestValidator.repeats(["a", "b", "a", "c", "b", "a"]) == [2, 4, 5])
    let long = (0..<100).map { "n\($0 % 40)" }
    #expect(ManifestValidator.repeats(long) == Array(40..<100))
    #expect(ManifestValidator.repeats([]) == [])
  }

  @Test func cachesCatalogLookups() {
    let modules = (0..<1_000).map { module("m\($0)", type: "Missing.Shared") }
    let problems = validate(modules)
    #expect(problems.count == 1_000)
    #expect(problems.allSatisfy { $0.kind == .typeNotFound })
  }
}

@Suite("Manifest: suggestions")
struct SuggestionTests {
  @Test func closestCandidates() {
    #expect(Suggestion.closest(to: "priorty", in: ["name", "priority"]) == "priority")
    #expect(Suggestion.closest(to: "Priority", in: ["priority"]) == "priority")
    #expect(Suggestion.closest(to: "integer", in: ["int", "string"]) == "int")
    #expect(Suggestion.closest(to: "zzz", in: ["name", "type"]) == nil)
    #expect(Suggestion.closest(to: String(repeating: "a", count: 100), in: ["a"]) == nil)
    #expect(editDistance(Array("kitten".utf8), Array("sitting".utf8), limit: 5) == 3)
    #expect(editDistance(Array("".utf8), Array("abc".utf8), limit: 5) == 3)
  }
}
