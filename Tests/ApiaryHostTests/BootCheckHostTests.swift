import Foundation
import Testing

/// `validate` says "ok" only for manifests that can boot.
@Suite struct BootCheckHostTests {
  static func manifests() throws -> URL {
    try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "B", "scheme": "b"}"#,
      "modules/m.json": """
      {"schemaVersion": 1, "modules": [{"name": "logging", "type": "LoggingPlugin.LoggingModule",
        "services": [{"protocol": "NotebookKit.Logger", "implementation": "LoggingPlugin.LoggingModule"},
                     {"protocol": "NotebookKit.NoteStore", "implementation": "LoggingPlugin.ConsoleLogger"}],
        "targets": [
          {"name": "console", "type": "LoggingPlugin.ConsoleLogger"},
          {"name": "diagnostics", "type": "LoggingPlugin.DiagnosticsTarget",
           "actions": [{"name": "metrics"}, {"name": "reset"}]}
        ]}]}
      """,
    ])
  }

  static let expected = [
    "modules[0].services[0].implementation: service implementation "
      + "'LoggingPlugin.LoggingModule' is not Injectable",
    "modules[0].services[1].implementation: service implementation LoggingPlugin.ConsoleLogger "
      + "does not conform to NotebookKit.NoteStore",
    "modules[0].targets[0].type: type 'LoggingPlugin.ConsoleLogger' of target 'console' is not "
      + "a Target",
    "modules[0].targets[1].actions[1]: target 'diagnostics' (LoggingPlugin.DiagnosticsTarget) "
      + "does not implement action 'reset'; it implements metrics, notFound",
  ]

  @Test func validateReportsWhatCannotBoot() throws {
    let result = try HostProcess.run(["validate", try Self.manifests().path])
    #expect(result.status == 1)
    for text in Self.expected { #expect(result.stdout.contains(text), "\(result.stdout)") }
    #expect(result.stderr.contains("4 problems"))
  }

  @Test func runRefusesTheSameBeforeAnyModuleCode() throws {
    let result = try HostProcess.run(["run", "--manifests", try Self.manifests().path])
    #expect(result.status == 1)
    for text in Self.expected { #expect(result.stderr.contains(text), "\(result.stderr)") }
    #expect(!result.stdout.contains("setUp") && !result.stderr.contains("setUp"))
  }
}
