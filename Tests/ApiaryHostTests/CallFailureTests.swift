import Foundation
import Testing

/// Where a failed call went wrong, through `apiary call`.
@Suite struct CallFailureTests {
  /// A mediator error of a call the action made follows the outer call's target and action: it
  /// printed only the inner call's (`missing/x: …`), as if the URL had named it.
  @Test func aFailedCallInsideAnActionNamesBothCalls() throws {
    let library = PluginPackage.faults.library("FaultPlugin").path
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "F", "scheme": "faults", "modules": ["m.json"]}"#,
      "m.json":
        #"{"schemaVersion": 1, "modules": [{"name": "talker", "type": "FaultPlugin.FaultModule", "#
        + #""library": "\#(library)", "version": "1.0.0", "targets": [{"name": "talker", "#
        + #""type": "FaultPlugin.FaultTarget", "actions": [{"name": "callMissing", "remote": true}]}]}]}"#,
    ])
    let result = try HostProcess.run(["call", "faults://talker/callMissing", app.path])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "error: talker/callMissing: missing/x: no target 'missing' (is its module loaded?)"),
      "\(result.stderr)")
  }

  /// A process-placed module's error, from a call the action made to it, follows the outer
  /// call's target and action: `apiary run` printed `error: module 'faulty': its child process
  /// is restarting, …` for a URL that called `talker`, so among calls side by side none said
  /// which had failed. The module's own target's calls keep the error as it is.
  @Test(.enabled(if: SupervisionHostTests.python != nil, "python3 is not installed"))
  func aChildProcessErrorOfACallInsideAnActionNamesTheOuterCall() throws {
    let library = PluginPackage.faults.library("FaultPlugin").path
    let directory = try SupervisionHostTests.application([
      """
      {"name": "talker", "type": "FaultPlugin.FaultModule", "library": "\(library)",
       "version": "1.0.0", "targets": [{"name": "talker", "type": "FaultPlugin.FaultTarget",
       "actions": [{"name": "call", "remote": true, "parameters": [
         {"name": "target", "type": "string"}, {"name": "action", "type": "string"}]}]}]}
      """,
      SupervisionHostTests.pythonModule(
        "faulty", script: SupervisionHostTests.faulty.path,
        extra: #""restart": {"policy": "on-failure", "backoff": {"initialSeconds": 3600, "#
          + #""maxSeconds": 3600}}"#),
    ])
    let host = try SupervisionHostTests.start(["run", directory.path, "--quiet"])
    SupervisionHostTests.send(host, "faults://faulty/crash?how=exit")
    #expect(host.waitForError("apiary: restarting 'faulty'"))
    SupervisionHostTests.send(host, "faults://talker/call?target=faulty&action=pid")
    SupervisionHostTests.send(host, ":wait")
    SupervisionHostTests.send(host, "faults://faulty/pid")
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let lines = (result.stdout + result.stderr).split(separator: "\n")
    let restarting = "module 'faulty': its child process is restarting"
    #expect(
      lines.contains { $0.hasPrefix("error: talker/call: \(restarting)") },
      "\(result.stdout)\(result.stderr)")
    #expect(
      lines.contains { $0.hasPrefix("error: \(restarting)") }, "\(result.stdout)\(result.stderr)")
  }
}
