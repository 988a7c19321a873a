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
}
