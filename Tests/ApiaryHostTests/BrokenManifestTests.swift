import Foundation
import Testing

@Suite struct BrokenManifestTests {
  static let app = """
    {"schemaVersion": 1, "name": "Broken", "scheme": "broken", "modules": ["modules"]}
    """

  @Test func validatePrintsEveryProblemWithFileLineAndKeyPath() throws {
    let directory = try HostProcess.manifests([
      "app.json": Self.app,
      "modules/a.json": """
      {
        "schemaVersion": 1,
        "modules": [
          {"name": "a", "type": "LoggingPlugin.LoggingModule", "priorty": 3},
          {"name": "b", "type": "NotesPlugin.NotesModul", "dependencies": ["zzz"]},
          {"name": "c", "type": "LoggingPlugin.LoggingModule", "priority": "high"}
        ]
      }
      """,
      "modules/b.json": "{\"schemaVersion\": 1, \"modules\": [ {\"name\": \"d\" ",
    ])
    let result = try HostProcess.run(["validate", directory.path])
    #expect(result.status == 1)
    let out = result.stdout
    #expect(out.contains("a.json:4:"), "unknown key has a line: \(out)")
    #expect(out.contains("modules[0].priorty"))
    #expect(out.contains("did you mean 'priority'"))
    #expect(out.contains("modules[1].type"))
    #expect(out.contains("NotesPlugin.NotesModul"))
    #expect(out.contains("zzz"))
    #expect(out.contains("modules[2].priority"))
    #expect(out.contains("b.json:1:"), "syntax error has a position: \(out)")
    #expect(result.stderr.contains("problems in"))
  }

  @Test func cycleIsPrintedAsAPath() throws {
    let directory = try HostProcess.manifests([
      "app.json": Self.app,
      "modules/m.json": """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "LoggingPlugin.LoggingModule", "dependencies": ["b"]},
        {"name": "b", "type": "LoggingPlugin.LoggingModule", "dependencies": ["c"]},
        {"name": "c", "type": "LoggingPlugin.LoggingModule", "dependencies": ["a"]}
      ]}
      """,
    ])
    let result = try HostProcess.run(["validate", directory.path])
    #expect(result.status == 1)
    #expect(result.stdout.contains("a → b → c → a"), "\(result.stdout)")
  }

  @Test func runRefusesBrokenManifestsWithTheProblems() throws {
    let directory = try HostProcess.manifests(["app.json": "{\"schemaVersion\": 9}"])
    let result = try HostProcess.run(["run", "--manifests", directory.path])
    #expect(result.status == 1)
    #expect(result.stderr.contains("schemaVersion"))
    let missing = try HostProcess.run(["run", "--manifests", "/nonexistent/apiary"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("/nonexistent/apiary"))
  }
}
