import Foundation
import Testing

/// Names that would clash in generated clients are caught before any client is written.
@Suite struct NameCollisionTests {
  static func manifests() throws -> URL {
    let library = PluginGateTests.library("LoggingPlugin").path
    return try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "C", "scheme": "c"}"#,
      "modules/m.json": """
      {"schemaVersion": 1, "modules": [{"name": "logging", "type": "LoggingPlugin.LoggingModule",
        "library": "\(library)", "version": "1.0.0",
        "targets": [
          {"name": "diagnostics", "type": "LoggingPlugin.DiagnosticsTarget",
           "actions": [{"name": "list-calls"}, {"name": "list_calls"}]},
          {"name": "Diagnostics", "type": "LoggingPlugin.DiagnosticsTarget"}
        ]}]}
      """,
    ])
  }

  @Test func validateNamesTheCollidingNames() throws {
    let result = try HostProcess.run(["validate", try Self.manifests().path])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "modules[0].targets[0].actions[1]: action names 'list-calls' and "
          + "'list_calls' both become the Swift name listCalls"), "\(result.stdout)")
    #expect(
      result.stdout.contains("target names 'diagnostics' and 'Diagnostics' both become"))
  }

  @Test func generateRefusesToWriteClientsThatDoNotCompile() throws {
    let directory = try Self.manifests()
    let output = directory.appendingPathComponent("Clients.swift")
    let result = try HostProcess.run(["generate", directory.path, "--output", output.path])
    #expect(result.status == 1)
    #expect(result.stderr.contains("'list-calls' and 'list_calls'"))
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }
}
