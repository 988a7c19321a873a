import Foundation
import Testing

/// Manifests that cannot boot are refused before any module code runs: the load gate reports what
/// the manifests and the plugin's descriptor tell without loading it; then `validate` and `run`
/// open the library and link every declared type, before any module's `init` or `setUp`.
@Suite struct BootCheckHostTests {
  /// The sample logging plugin, declared with services, targets and actions it does not have.
  static func manifests(withConsoleTarget: Bool) throws -> URL {
    let library = PluginGateTests.library("LoggingPlugin").path
    let console = #"{"name": "console", "type": "LoggingPlugin.ConsoleLogger"},"#
    return try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "B", "scheme": "b"}"#,
      "modules/m.json": """
      {"schemaVersion": 1, "modules": [{"name": "logging", "type": "LoggingPlugin.LoggingModule",
        "library": "\(library)", "version": "1.0.0",
        "services": [{"protocol": "NotebookKit.Logger", "implementation": "LoggingPlugin.LoggingModule"},
                     {"protocol": "NotebookKit.NoteStore", "implementation": "LoggingPlugin.ConsoleLogger"}],
        "targets": [
          \(withConsoleTarget ? console : "")
          {"name": "diagnostics", "type": "LoggingPlugin.DiagnosticsTarget",
           "actions": [{"name": "metrics"}, {"name": "reset"}]}
        ]}]}
      """,
    ])
  }

  /// One mistake, one problem: a mistyped module type is reported as the plugin's, with the
  /// closest type it exports. It also got "not found … whose plugin is linked into the host".
  @Test func aMistakeInAPluginModuleIsReportedOnce() throws {
    let library = PluginGateTests.library("LoggingPlugin").path
    func validate(_ fields: String) throws -> String {
      let directory = try HostProcess.manifests([
        "app.json": #"{"schemaVersion": 1, "name": "B", "scheme": "b"}"#,
        "modules/m.json": #"{"schemaVersion": 1, "modules": [{"name": "logging", "#
          + #""library": "\#(library)", \#(fields)}]}"#,
      ])
      let result = try HostProcess.run(["validate", directory.path])
      #expect(result.status == 1)
      return result.stdout
    }
    let typo = try validate(#""type": "LoggingPlugin.LoggingModul", "version": "1.0.0""#)
    #expect(typo.split(separator: "\n").count == 1, "\(typo)")
    #expect(
      typo.hasSuffix(
        "modules[0].type: module type 'LoggingPlugin.LoggingModul' is not exported by plugin "
          + "'LoggingPlugin' (library '\(library)'); its descriptor exports "
          + "[\"LoggingPlugin.LoggingModule\"] (did you mean 'LoggingPlugin.LoggingModule'?)\n"),
      "\(typo)")
  }

  /// A service implementation the host does not find names the library it searched, by its
  /// shorter path when that is the same file (the manifest wrote `…/release/../release/…`),
  /// and the closest type the host knows; it used to say only "not found".
  @Test func aServiceImplementationNotFoundNamesTheLibrarySearched() throws {
    let library = PluginGateTests.library("LoggingPlugin")
    let folder = library.deletingLastPathComponent()
    let written = folder.path + "/../" + folder.lastPathComponent + "/" + library.lastPathComponent
    let directory = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "B", "scheme": "b"}"#,
      "modules/m.json": """
      {"schemaVersion": 1, "modules": [{"name": "logging", "type": "LoggingPlugin.LoggingModule",
        "library": "\(written)", "version": "1.0.0",
        "services": [
          {"protocol": "NotebookKit.Logger", "implementation": "LoggingPlugin.ConsoleLoger"},
          {"protocol": "NotebookKit.Logger", "implementation": "LoggingPlugin.LoggingModul",
           "name": "other"}]}]}
      """,
    ])
    let result = try HostProcess.run(["validate", directory.path])
    #expect(result.status == 1)
    let searched =
      "searched plugin library '\(library.path)' (the module's 'library') and the host's types; "
      + "expected a type name written ModuleName.TypeName that the library or the host declares"
    let lines = result.stdout.split(separator: "\n").map { line in
      line.split(separator: " ").dropFirst().joined(separator: " ")
    }
    let first: String =
      "modules[0].services[0].implementation: service implementation type "
      + "'LoggingPlugin.ConsoleLoger' not found; \(searched)"
    let second: String =
      "modules[0].services[1].implementation: service implementation type "
      + "'LoggingPlugin.LoggingModul' not found (did you mean 'LoggingPlugin.LoggingModule'?); "
      + searched
    #expect(lines == [first, second], "\(result.stdout)")
  }

  @Test func validateReportsATargetTypeThePluginDoesNotExport() throws {
    let result = try HostProcess.run(["validate", try Self.manifests(withConsoleTarget: true).path])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "modules[0].targets[0].type: target type 'LoggingPlugin.ConsoleLogger' is not exported by "
          + "plugin 'LoggingPlugin'"), "\(result.stdout)")
  }

  /// What the sample logging plugin, once open, shows cannot link.
  static let linkProblems = [
    "modules[0].services[0].implementation: service implementation "
      + "'LoggingPlugin.LoggingModule' is not Injectable",
    "modules[0].services[1].implementation: service implementation LoggingPlugin.ConsoleLogger "
      + "does not conform to NotebookKit.NoteStore",
    "modules[0].targets[0].actions[1]: target 'diagnostics' (LoggingPlugin.DiagnosticsTarget) "
      + "does not implement action 'reset'; it implements metrics, notFound",
  ]

  @Test func validateReportsWhatCannotLinkOnceThePluginPassedTheGate() throws {
    let directory = try Self.manifests(withConsoleTarget: false)
    let result = try HostProcess.run(["validate", directory.path])
    #expect(result.status == 1)
    for text in Self.linkProblems { #expect(result.stdout.contains(text), "\(result.stdout)") }
    #expect(result.stderr.contains("3 problems"), "\(result.stderr)")
  }

  @Test func runRefusesWhatCannotLinkBeforeAnyModuleCode() throws {
    let directory = try Self.manifests(withConsoleTarget: false)
    let result = try HostProcess.run(["run", "--manifests", directory.path], input: "")
    #expect(result.status == 1)
    let lines = result.stderr.split(separator: "\n")
    // One problem a line: the boot's error printed them as one line joined by a literal "\n".
    #expect(lines.contains("error: boot failed: 3 manifest problems:"), "\(result.stderr)")
    for text in Self.linkProblems {
      #expect(lines.contains { $0.hasPrefix("  ") && $0.contains(text) }, "\(result.stderr)")
    }
    #expect(!result.stdout.contains("setUp") && !result.stderr.contains("setUp"))
  }
}
