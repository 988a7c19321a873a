import Foundation
import Testing

@testable import Apiary
@testable import ApiaryManifest

/// Decodes a module file given as text.
func decodeModules(_ text: String, file: String = "modules/notes.json") -> ManifestSet {
  ManifestLoader.decodeModules(Data(text.utf8), file: file)
}

@Suite("Manifest: decoding")
struct ManifestDecoderTests {
  @Test func decodesEveryModuleField() throws {
    let text = """
      {
        "schemaVersion": 1,
        "modules": [
          {
            "name": "notes",
            "type": "NotesPlugin.NotesModule",
            "level": "basic",
            "priority": 10,
            "dependencies": ["store", "logging"],
            "async": true,
            "timeout": 2.5,
            "enabled": false,
            "optional": true,
            "config": { "maxTitleLength": 120, "tags": ["a"] },
            "services": [
              { "protocol": "NotebookKit.NoteStore", "implementation": "StorePlugin.FileNoteStore",
                "name": "primary", "scope": "weak" }
            ],
            "targets": [
              { "name": "notes", "type": "NotesPlugin.NotesTarget",
                "actions": [
                  { "name": "create", "remote": true, "summary": "Create a note", "returns": "object",
                    "parameters": [
                      { "name": "title", "type": "string", "required": true },
                      { "name": "pinned", "type": "bool", "default": false }
                    ] }
                ] }
            ]
          }
        ]
      }
      """
    let set = decodeModules(text)
    #expect(set.problems.isEmpty)
    let module = try #require(set.modules.first)
    let expected = ModuleManifest(
      name: "notes", type: "NotesPlugin.NotesModule", level: .basic, priority: 10,
      dependencies: ["store", "logging"], isAsync: true, startTimeout: 2.5, isEnabled: false,
      isOptional: true, config: ["maxTitleLength": 120, "tags": ["a"]],
      services: [
        ServiceManifest(
          protocolName: "NotebookKit.NoteStore", implementation: "StorePlugin.FileNoteStore",
          name: "primary", scope: .weak,
          source: SourceLocation(
            file: "modules/notes.json", keyPath: "modules[0].services[0]", line: 16, column: 9))
      ],
      targets: [
        TargetManifest(
          name: "notes", type: "NotesPlugin.NotesTarget",
          actions: [
            ActionManifest(
              name: "create", isRemote: true,
              parameters: [
                ParameterManifest(name: "title", kind: .string, isRequired: true),
                ParameterManifest(name: "pinned", kind: .bool, defaultValue: false),
              ], returns: .object, summary: "Create a note",
              source: SourceLocation(
                file: "modules/notes.json", keyPath: "modules[0].targets[0].actions[0]",
                line: 22, column: 13))
          ],
          source: SourceLocation(
            file: "modules/notes.json", keyPath: "modules[0].targets[0]", line: 20, column: 9))
      ],
      source: SourceLocation(file: "modules/notes.json", keyPath: "modules[0]", line: 4, column: 5))
    #expect(module == expected)
  }

  @Test func indexedKeyPaths() {
    #expect(ManifestDecoder.indexed("modules", 0) == "modules[0]")
    #expect(ManifestDecoder.indexed("modules", 10) == "modules[10]")
    #expect(ManifestDecoder.indexed("a.b", 9_876_543) == "a.b[9876543]")
    #expect(ManifestDecoder.indexed("", 7) == "[7]")
  }

  @Test func appliesDefaults() throws {
    let set = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "P.A"}]}"#)
    #expect(set.problems.isEmpty)
    let module = try #require(set.modules.first)
    #expect(module.level == .normal)
    #expect(module.priority == 0)
    #expect(module.dependencies.isEmpty)
    #expect(!module.isAsync && module.isEnabled && !module.isOptional)
    #expect(module.startTimeout == 10)
    #expect(module.config.isEmpty && module.services.isEmpty && module.targets.isEmpty)
  }

  @Test func wrongTypeNamesExpectedAndFound() {
    let text = """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "P.A"},
        {"name": "b", "type": "P.B"},
        {"name": "c", "type": "P.C",
         "priority": "high"}
      ]}
      """
    let set = decodeModules(text)
    #expect(
      set.problems.map(\.description) == [
        #"modules/notes.json:5:16 modules[2].priority: expected integer, found string "high""#
      ])
    #expect(set.problems.first?.kind == .typeMismatch)
    #expect(set.modules.count == 3)
  }

  @Test func unknownKeySuggestsClosestKnownKey() {
    let set = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "P.A", "priorty": 3, "zzz": 1}]}"#)
    #expect(
      set.problems.map(\.message) == [
        "unknown key 'priorty' (did you mean 'priority'?)",
        "unknown key 'zzz' (expected one of name, type, level, priority, dependencies, async, "
          + "timeout, enabled, optional, config, services, targets, library, version, sha256, "
          + "activation, activationEvents, placement, command, restart, healthCheck)",
      ])
    #expect(set.problems.first?.location.keyPath == "modules[0].priorty")
    #expect(set.problems.first?.location.column == 63)
    #expect(set.problems.allSatisfy { $0.kind == .unknownKey })
  }

  /// The article agrees with the name's kind: it read "expected a action name".
  @Test func badNamesAreNamedWithTheirArticle() {
    let set = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "m", "type": "P.M", "targets": "#
        + #"[{"name": "t!", "type": "P.T", "actions": [{"name": "é"}]}]}]}"#)
    let problems = set.problems.map(\.description)
    #expect(problems.count == 2, "\(problems)")
    #expect(problems.contains { $0.contains(": expected a target name of a letter followed by") })
    #expect(problems.contains { $0.contains(": expected an action name of a letter followed by") })
  }

  @Test func reportsEveryProblemInOnePass() {
    let text = """
      {"schemaVersion": 1, "modules": [
        {"type": "P.A", "level": "high"},
        {"name": "b c", "type": "P.B", "timeout": 0, "async": "yes"},
        {"name": "d", "type": 7}
      ]}
      """
    let set = decodeModules(text)
    #expect(
      set.problems.map(\.description) == [
        "modules/notes.json:2:3 modules[0]: missing required key 'name' (string)",
        #"modules/notes.json:2:28 modules[0].level: expected one of basic, normal, found string "high""#,
        "modules/notes.json:3:12 modules[1].name: expected a module name of a letter followed by "
          + #"letters, digits, '_' or '-', found string "b c""#,
        "modules/notes.json:3:45 modules[1].timeout: expected a number of seconds greater than 0 "
          + "and at most 1000000, found integer 0",
        #"modules/notes.json:3:57 modules[1].async: expected boolean, found string "yes""#,
        "modules/notes.json:4:25 modules[2].type: expected string, found integer 7",
      ])
    #expect(
      set.problems.map(\.kind) == [
        .missingKey, .invalidValue, .invalidValue, .invalidValue, .typeMismatch, .typeMismatch,
      ])
    // Modules with a usable name and type are kept, so cross-checks still see them.
    #expect(set.modules.map(\.name) == ["b c"])
  }

  @Test func hostileValuesAreProblemsNotCrashes() {
    let text = """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "P.A", "priority": 1e300, "timeout": -1},
        {"name": "b", "type": "P.B", "priority": 1e20, "timeout": 1e308},
        {"name": "c", "type": "P.C", "priority": -9223372036854775808, "config": {"x": [[[]]]}}
      ]}
      """
    let set = decodeModules(text)
    #expect(
      set.problems.map(\.message) == [
        "expected integer, found number 1e+300",
        "expected a number of seconds greater than 0 and at most 1000000, found integer -1",
        "expected integer, found number 1e+20",
        "expected a number of seconds greater than 0 and at most 1000000, found number 1e+308",
      ])
    #expect(set.modules.map(\.priority) == [0, 0, Int.min])
    #expect(set.modules[1].startTimeout == ModuleManifest.defaultStartTimeout)
    #expect(decodeModules("").problems.map(\.message) == ["expected a value, found end of file"])
    #expect(decodeModules("", file: "m.plist").problems.map(\.kind) == [.syntax])
    for root in ["null", "\"text\"", "3", "true"] {
      let other = decodeModules(root)
      #expect(other.problems.map(\.kind) == [.typeMismatch])
      #expect(other.modules.isEmpty)
    }
  }

  @Test func enumValuesSuggestClosest() {
    let set = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "P.A", "level": "Basic"}]}"#)
    #expect(
      set.problems.first?.message
        == #"expected one of basic, normal, found string "Basic" (did you mean 'basic'?)"#)
  }

  @Test(arguments: [
    (
      #"{"schemaVersion": 2, "modules": []}"#, ManifestProblem.Kind.unsupportedSchemaVersion,
      "unsupported schemaVersion 2; this build reads schemaVersion 1"
    ),
    (#"{"modules": []}"#, .missingKey, "missing required key 'schemaVersion' (integer)"),
    (
      #"{"schemaVersion": "1", "modules": []}"#, .typeMismatch,
      #"expected integer, found string "1""#
    ),
    (#"{"schemaVersion": 1}"#, .missingKey, "missing required key 'modules' (array)"),
    (#"{"schemaVersion": 1, "modules": {}}"#, .typeMismatch, "expected array, found object"),
    (#"[]"#, .typeMismatch, "expected object, found array"),
    (#"{"schemaVersion": 1, "modules": [3]}"#, .typeMismatch, "expected object, found integer 3"),
  ])
  func fileLevelProblems(text: String, kind: ManifestProblem.Kind, message: String) {
    let set = decodeModules(text)
    #expect(set.problems.map(\.kind) == [kind])
    #expect(set.problems.first?.message == message)
    #expect(set.modules.isEmpty)
  }

  @Test func checksSectionKeysAndValues() {
    let text = """
      {"schemaVersion": 1, "modules": [{"name": "a", "type": "P.A",
        "services": [{"protocol": "P.S", "implementaton": "P.I", "scope": "global"}],
        "targets": [{"name": "t", "type": "P.T", "actions": [
          {"name": "go", "remote": 1, "returns": "text",
           "parameters": [{"name": "x", "type": "integer"}, {"name": "", "type": "int"}]}]}],
        "config": []
      }]}
      """
    let set = decodeModules(text)
    #expect(
      set.problems.map { "\($0.location.keyPath): \($0.message)" } == [
        "modules[0].services[0]: missing required key 'implementation' (string)",
        "modules[0].services[0].implementaton: unknown key 'implementaton' (did you mean "
          + "'implementation'?)",
        #"modules[0].services[0].scope: expected one of transient, singleton, weak, graph, found string "global""#,
        "modules[0].targets[0].actions[0].remote: expected boolean, found integer 1",
        #"modules[0].targets[0].actions[0].returns: expected one of string, int, double, bool, array, object, any, found string "text""#,
        #"modules[0].targets[0].actions[0].parameters[0].type: expected one of string, int, double, bool, array, object, any, found string "integer" (did you mean 'int'?)"#,
        "modules[0].targets[0].actions[0].parameters[1].name: expected a non-empty name",
        "modules[0].config: expected object, found array",
      ])
  }

  @Test func decodesApplicationManifest() throws {
    let text = """
      {
        "schemaVersion": 1,
        "name": "Notebook",
        "scheme": "notebook",
        "environment": "prod",
        "modules": ["modules", "extra/search.json"],
        "config": { "dataDirectory": ".apiary-data" },
        "fallback": { "target": "diagnostics", "action": "notFound" }
      }
      """
    let decoded = ManifestLoader.decodeApplication(Data(text.utf8), file: "app.json")
    #expect(decoded.problems.isEmpty)
    let application = try #require(decoded.application)
    #expect(
      application
        == ApplicationManifest(
          schemaVersion: 1, name: "Notebook", scheme: "notebook", environment: .prod,
          modulePaths: ["modules", "extra/search.json"],
          config: ["dataDirectory": ".apiary-data"],
          fallback: ActionReference(target: "diagnostics", action: "notFound"),
          source: SourceLocation(file: "app.json", keyPath: "", line: 1, column: 1)))
    #expect(decoded.modulePaths.map(\.location.keyPath) == ["modules[0]", "modules[1]"])
  }

  @Test func applicationDefaultsAndProblems() {
    let minimal = ManifestLoader.decodeApplication(
      Data(#"{"schemaVersion": 1, "name": "N", "scheme": "n+x.y-1"}"#.utf8), file: "app.json")
    #expect(minimal.problems.isEmpty)
    #expect(minimal.application?.environment == .dev)
    #expect(minimal.application?.modulePaths == ["modules"])
    #expect(minimal.modulePaths.map(\.path) == ["modules"])

    let bad = ManifestLoader.decodeApplication(
      Data(
        #"{"schemaVersion": 1, "scheme": "1notes", "environment": "production", "fallback": {"target": "x"}, "modules": ["", 3]}"#
          .utf8), file: "app.json")
    #expect(bad.application == nil)
    #expect(
      bad.problems.map(\.message) == [
        "missing required key 'name' (string)",
        "expected a URL scheme (a letter, then letters, digits, '+', '-' or '.'), found string \"1notes\"",
        #"expected one of dev, test, stage, prod, found string "production" (did you mean 'prod'?)"#,
        "missing required key 'action' (string)",
        #"expected a file or directory path, found """#,
        "expected string, found integer 3",
      ])
  }
}
