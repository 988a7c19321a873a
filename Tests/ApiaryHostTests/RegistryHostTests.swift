import Foundation
import Testing

/// Issue 10 and 11 through the `apiary` executable: ranked manifest services, action time
/// limits in manifests, a service whose class does not conform failing boot, and URLs that
/// stay remote through the not-found chain.
@Suite struct RegistryHostTests {
  static let app = """
    {"schemaVersion": 1, "name": "Ranked", "scheme": "ranked", "modules": ["modules"]}
    """

  static func module(_ name: String, rank: String, timeout: String = "5") -> String {
    """
    {"schemaVersion": 1, "modules": [
      {"name": "\(name)", "type": "LoggingPlugin.LoggingModule",
       "library": "\(PluginGateTests.library("LoggingPlugin").path)", "version": "1.0.0",
       "services": [{"protocol": "NotebookKit.Logger",
                     "implementation": "LoggingPlugin.ConsoleLogger"\(rank)}],
       "targets": [{"name": "\(name)", "type": "LoggingPlugin.DiagnosticsTarget",
                    "actions": [{"name": "metrics", "timeout": \(timeout)}]}]}
    ]}
    """
  }

  @Test func validateAcceptsRankedProvidersAndActionTimeouts() throws {
    let ranked = try HostProcess.manifests([
      "app.json": Self.app,
      "modules/a.json": Self.module("a", rank: ", \"rank\": 1"),
      "modules/b.json": Self.module("b", rank: ", \"rank\": 2"),
    ])
    let ok = try HostProcess.run(["validate", ranked.path])
    #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")

    let broken = try HostProcess.manifests([
      "app.json": Self.app,
      "modules/a.json": Self.module("a", rank: ", \"rank\": 1", timeout: "0"),
      "modules/b.json": Self.module("b", rank: ""),
    ])
    let refused = try HostProcess.run(["validate", broken.path])
    #expect(refused.status == 1)
    #expect(refused.stdout.contains("actions[0].timeout"), "\(refused.stdout)")
    #expect(refused.stdout.contains("expected a number of seconds greater than 0"))
    #expect(refused.stdout.contains("or give each a 'rank'"), "\(refused.stdout)")
  }

  @Test func aServiceClassThatDoesNotConformFailsBootNamingTheEntry() throws {
    let directory = try HostProcess.manifests([
      "app.json": Self.app,
      "modules/a.json": """
      {"schemaVersion": 1, "modules": [
        {"name": "logging", "type": "LoggingPlugin.LoggingModule",
         "library": "\(PluginGateTests.library("LoggingPlugin").path)", "version": "1.0.0",
         "services": [{"protocol": "NotebookKit.NoteStore",
                       "implementation": "LoggingPlugin.ConsoleLogger"}]}
      ]}
      """,
    ])
    let result = try HostProcess.run(["inspect", directory.path])
    #expect(result.status == 1)
    let output = result.stdout + result.stderr
    #expect(
      output.contains("LoggingPlugin.ConsoleLogger does not conform to NotebookKit.NoteStore"),
      "\(output)")
    #expect(output.contains("modules[0].services[0]"), "\(output)")
  }

  @Test func aURLNamingNoTargetDoesNotReachTheLocalOnlyFallback() throws {
    let result = try HostProcess.run(
      ["call", "notebook://nowhere/thing", "--manifests", HostProcess.manifests],
      in: HostProcess.temporaryDirectory())
    #expect(result.status == 1)
    let output = result.stdout + result.stderr
    #expect(output.contains("no target 'nowhere'"), "\(output)")
    #expect(!output.contains("see 'apiary inspect'"), "the fallback must not run: \(output)")
  }

  /// A URL no application could take (malformed, or another scheme) is refused before the
  /// application boots: no module runs, so the store logs nothing.
  @Test func aMalformedURLIsRefusedBeforeTheBoot() throws {
    for (url, reason) in [
      ("notebook://notes", "missing action"), ("other://notes/list", "scheme 'other'"),
    ] {
      let result = try HostProcess.run(
        ["call", url, "--manifests", HostProcess.manifests], in: HostProcess.temporaryDirectory())
      #expect(result.status == 1)
      #expect(result.stderr.contains(reason), "\(result.stderr)")
      #expect(!result.stderr.contains("[info] store"), "booted: \(result.stderr)")
    }
  }

  /// A mistyped target or action is answered with the closest name there is; a name close to
  /// nothing gets no guess.
  @Test func aMistypedTargetOrActionGetsTheClosestName() throws {
    for (url, hint) in [
      ("notebook://notse/list", " (did you mean 'notes'?)"),
      ("notebook://notes/lst", " (did you mean 'list'?)"),
      ("notebook://nowhere/thing", nil),
    ] {
      let result = try HostProcess.run(
        ["call", url, "--manifests", HostProcess.manifests], in: HostProcess.temporaryDirectory())
      #expect(result.status == 1)
      let error = result.stderr.split(separator: "\n").first { $0.hasPrefix("error:") } ?? ""
      if let hint {
        #expect(error.hasSuffix(hint), "\(result.stderr)")
      } else {
        #expect(!error.contains("did you mean"), "\(result.stderr)")
      }
    }
  }
}
