import Foundation
import Testing

/// `--format json` through the `apiary` binary: each command's output parses with
/// JSONSerialization and carries the documented fields (docs/json-output.md).
@Suite struct JSONOutputTests {
  /// The one JSON object `result` printed on standard output.
  static func document(_ result: HostProcess.Result) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    let document = try #require(object as? [String: Any], "not an object: \(result.stdout)")
    #expect(document["schemaVersion"] as? Int == 1)
    return document
  }

  @Test func validateListsEveryProblemWithItsPosition() throws {
    let directory = try HostProcess.manifests([
      "app.json": BrokenManifestTests.app,
      "modules/a.json": """
      {
        "schemaVersion": 1,
        "modules": [
          {"name": "a", "type": "LoggingPlugin.LoggingModule", "priorty": 3,
           "library": "\(PluginGateTests.library("LoggingPlugin").path)", "version": "1.0.0"},
          {"name": "c", "type": "LoggingPlugin.LoggingModule", "priority": "high",
           "library": "\(PluginGateTests.library("LoggingPlugin").path)", "version": "1.0.0"}
        ]
      }
      """,
    ])
    let result = try HostProcess.run(["validate", directory.path, "--format", "json"])
    #expect(result.status == 1)
    let document = try Self.document(result)
    #expect(document["command"] as? String == "validate")
    #expect(document["valid"] as? Bool == false)
    // What was read is reported with the problems, as docs/json-output.md shows.
    #expect(document["application"] as? String == "Broken")
    #expect(document["enabledModules"] as? Int == 2)
    #expect(
      document["files"] as? [String] == [
        directory.appendingPathComponent("app.json").path,
        directory.appendingPathComponent("modules/a.json").path,
      ])
    let problems = try #require(document["problems"] as? [[String: Any]])
    #expect(problems.count == 2)
    let unknown = try #require(problems.first { $0["kind"] as? String == "unknownKey" })
    #expect((unknown["file"] as? String)?.hasSuffix("modules/a.json") == true)
    #expect(unknown["line"] as? Int == 4)
    #expect(unknown["keyPath"] as? String == "modules[0].priorty")
    let mismatch = try #require(problems.first { $0["kind"] as? String == "typeMismatch" })
    #expect(mismatch["line"] as? Int == 6)
    #expect(mismatch["column"] as? Int != nil)
    #expect(mismatch["keyPath"] as? String == "modules[1].priority")
    #expect(mismatch["expected"] as? String == "integer")
    #expect(mismatch["found"] as? String == "string \"high\"")
    #expect((mismatch["message"] as? String)?.contains("expected integer") == true)

    let valid = try HostProcess.run(["validate", HostProcess.manifests, "--format=json"])
    #expect(valid.status == 0)
    let ok = try Self.document(valid)
    #expect(ok["valid"] as? Bool == true)
    #expect(ok["application"] as? String == "Notebook")
    #expect((ok["problems"] as? [Any])?.isEmpty == true)
  }

  /// A plugin refusal is placed where the manifest names the library (it said `"file":
  /// "plugin"`, with no line).
  @Test func aPluginRefusalIsPlacedAtTheLibraryEntry() throws {
    let directory = try HostProcess.manifests([
      "app.json": BrokenManifestTests.app,
      "modules/a.json": """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "LoggingPlugin.LoggingModule",
         "library": "\(PluginGateTests.library("LoggingPlugin").path)", "version": "9.9.9"}
      ]}
      """,
    ])
    let result = try HostProcess.run(["validate", directory.path, "--format", "json"])
    #expect(result.status == 1)
    let problems = try #require(try Self.document(result)["problems"] as? [[String: Any]])
    let refusal = try #require(problems.first, "\(result.stdout)")
    #expect(refusal["file"] as? String == directory.appendingPathComponent("modules/a.json").path)
    #expect(refusal["line"] as? Int == 3)
    #expect(refusal["keyPath"] as? String == "modules[0].library")
    #expect((refusal["message"] as? String)?.hasPrefix("plugin refused: ") == true)
  }

  /// A refusal carries the gate's fields apart: `found` is what the library holds, the hint is
  /// in `hint`, and `refusal` names the gate's kind, plugin, library, field and descriptor line
  /// (`found` held the hint: the gate's problem was flattened to text before the report). A
  /// manifest problem has a null `hint` and `refusal`.
  @Test func aPluginRefusalCarriesTheGatesFieldsApart() throws {
    let library = PluginGateTests.library("LoggingPlugin").path
    let directory = try HostProcess.manifests([
      "app.json": BrokenManifestTests.app,
      "modules/a.json": """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "LoggingPlugin.LoggingModule", "optional": true,
         "library": "\(library)", "version": "9.9.9"},
        {"name": "b", "type": "LoggingPlugin.LoggingModule", "priorty": 1}
      ]}
      """,
    ])
    let result = try HostProcess.run(["validate", directory.path, "--format", "json"])
    #expect(result.status == 1)
    let problems = try #require(try Self.document(result)["problems"] as? [[String: Any]])
    let refusal = try #require(
      problems.first { $0["refusal"] is [String: Any] }, "\(result.stdout)")
    #expect(refusal["expected"] as? String == "9.9.9")
    #expect(refusal["found"] as? String == "1.0.0")
    #expect(
      refusal["hint"] as? String
        == "the manifest's version differs from the library's; update the manifest or rebuild "
        + "the plugin")
    let fields = try #require(refusal["refusal"] as? [String: Any])
    #expect(fields["kind"] as? String == "manifestMismatch")
    #expect(fields["plugin"] as? String == "LoggingPlugin")
    #expect(fields["library"] as? String == library)
    #expect(fields["field"] as? String == "version")
    #expect(fields["descriptorLine"] is Int)
    let message = try #require(refusal["message"] as? String)
    #expect(message.hasPrefix("plugin refused: LoggingPlugin: library '\(library)'"))
    #expect(message.hasSuffix("expected 9.9.9, found 1.0.0 (\(refusal["hint"] as? String ?? ""))"))
    let unknown = try #require(problems.first { $0["kind"] as? String == "unknownKey" })
    #expect(unknown["hint"] is NSNull && unknown["refusal"] is NSNull, "\(unknown)")
  }

  @Test func planListsModulesInBootOrder() throws {
    let result = try HostProcess.run(["plan", HostProcess.manifests, "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try Self.document(result)
    let modules = try #require(document["modules"] as? [[String: Any]])
    #expect(
      modules.compactMap { $0["name"] as? String } == ["logging", "store", "notes", "search"])
    let notes = modules[2]
    #expect(notes["position"] as? Int == 3)
    #expect(notes["level"] as? String == "normal")
    #expect(notes["priority"] as? Int == 10)
    #expect(notes["dependencies"] as? [String] == ["store", "logging"])
    #expect(notes["start"] as? String == "sync")
    #expect(modules[1]["start"] as? String == "async")
    #expect((document["application"] as? [String: Any])?["scheme"] as? String == "notebook")
  }

  @Test func inspectListsBindingsTargetsSchemasAndSubscriptions() throws {
    let result = try HostProcess.run(["inspect", HostProcess.manifests, "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try Self.document(result)
    let bindings = try #require(document["bindings"] as? [[String: Any]])
    let store = try #require(bindings.first { $0["type"] as? String == "NotebookKit.NoteStore" })
    #expect(store["owner"] as? String == "store")
    #expect(store["scope"] as? String == "singleton")
    let targets = try #require(document["targets"] as? [[String: Any]])
    let notes = try #require(targets.first { $0["name"] as? String == "notes" })
    let actions = try #require(notes["actions"] as? [[String: Any]])
    let create = try #require(actions.first { $0["name"] as? String == "create" })
    #expect(create["remote"] as? Bool == true)
    let schema = try #require(create["schema"] as? [String: Any])
    #expect(schema["required"] as? [String] == ["title"])
    let properties = try #require(schema["properties"] as? [String: [String: Any]])
    #expect(properties["title"]?["type"] as? String == "string")
    #expect(properties["pinned"]?["type"] as? String == "boolean")
    #expect(properties["pinned"]?["default"] as? Bool == false)
    let subscriptions = try #require(document["subscriptions"] as? [[String: Any]])
    let saved = try #require(subscriptions.first { $0["event"] as? String == "note.saved" })
    #expect(saved["handlers"] as? [String] == ["search"])
    let modules = try #require(document["modules"] as? [[String: Any]])
    // `search` is lazy: nothing used it, so it sleeps.
    #expect(
      modules.allSatisfy {
        $0["state"] as? String == ($0["name"] as? String == "search" ? "dormant" : "running")
      })
  }

  @Test func callPrintsTheResultOrTheTypedError() throws {
    let created = try HostProcess.run([
      "call", "notebook://notes/create?title=JSON", HostProcess.manifests, "--format", "json",
    ])
    #expect(created.status == 0, "\(created.stderr)")
    let success = try Self.document(created)
    #expect(success["ok"] as? Bool == true)
    #expect((success["result"] as? [String: Any])?["title"] as? String == "JSON")

    let refused = try HostProcess.run([
      "call", "notebook://notes/delete?id=1", HostProcess.manifests, "--format", "json",
    ])
    #expect(refused.status == 1)
    let failure = try Self.document(refused)
    #expect(failure["ok"] as? Bool == false)
    let error = try #require(failure["error"] as? [String: Any])
    #expect(error["type"] as? String == "MediatorError")
    #expect(error["case"] as? String == "notRemote")
    #expect(error["details"] as? [String: String] == ["target": "notes", "action": "delete"])
  }

  @Test func runProfileReportsEveryHook() throws {
    let result = try HostProcess.run(
      ["run", HostProcess.manifests, "--quiet", "--profile", "--format", "json"], input: "")
    #expect(result.status == 0, "\(result.stderr)")
    let document = try Self.document(result)
    #expect(document["command"] as? String == "run")
    let entries = try #require(document["profile"] as? [[String: Any]])
    let starts = entries.filter { $0["phase"] as? String == "start" }
    // `search` is lazy and nothing wakes it, so it never starts.
    #expect(Set(starts.compactMap { $0["subject"] as? String }) == ["logging", "store", "notes"])
    #expect(
      document["activations"] as? [[String: Any]] == nil
        || (document["activations"] as? [Any])?.isEmpty == true)
    let durations = entries.compactMap { $0["microseconds"] as? Int }
    #expect(durations.count == entries.count)
    #expect(durations == durations.sorted(by: >), "slowest first")
  }

  @Test func anUnknownFormatIsAUsageError() throws {
    let result = try HostProcess.run(["plan", HostProcess.manifests, "--format", "yaml"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("--format must be one of text, json, not 'yaml'"))
  }
}
