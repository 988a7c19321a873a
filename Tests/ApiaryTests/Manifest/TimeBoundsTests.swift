import Foundation
import Testing

@testable import Apiary
@testable import ApiaryManifest

/// Every time value a manifest gives (a module's or an action's `timeout`, a restart backoff,
/// a health check's interval and time limit) is greater than 0 and at most 1,000,000 seconds,
/// as `--shutdown-timeout`; past that it is refused naming the range.
@Suite struct TimeBoundsTests {
  static let range = "expected a number of seconds greater than 0 and at most 1000000"

  /// `"timeout": 1e300` was accepted.
  @Test func aTimeValuePastAMillionSecondsIsRefused() {
    let set = decodeModules(
      """
      {"schemaVersion": 1, "modules": [{"name": "a", "type": "P.A", "timeout": 1e300,
        "placement": "process",
        "restart": {"policy": "on-failure", "backoff": {"initialSeconds": 1000001}},
        "healthCheck": {"intervalSeconds": 2e6, "timeoutSeconds": 1000000.5},
        "targets": [{"name": "t", "type": "P.T", "actions": [{"name": "x", "timeout": 1e7}]}]}]}
      """)
    #expect(
      set.problems.map(\.description) == [
        "modules/notes.json:1:74 modules[0].timeout: \(Self.range), found number 1e+300",
        "modules/notes.json:3:69 modules[0].restart.backoff.initialSeconds: \(Self.range), found "
          + "integer 1000001",
        "modules/notes.json:4:38 modules[0].healthCheck.intervalSeconds: \(Self.range), found "
          + "number 2000000.0",
        "modules/notes.json:4:61 modules[0].healthCheck.timeoutSeconds: \(Self.range), found "
          + "number 1000000.5",
        "modules/notes.json:5:81 modules[0].targets[0].actions[0].timeout: \(Self.range), found "
          + "number 10000000.0",
      ])
    let most = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "P.A", "timeout": 1000000}]}"#)
    #expect(most.problems.isEmpty)
    #expect(most.modules.first?.startTimeout == 1_000_000)
  }
}
