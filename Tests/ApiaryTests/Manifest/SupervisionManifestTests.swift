import Apiary
import Testing

/// A module's `restart` and `healthCheck`, in JSON and plist, with positioned problems.
@Suite struct SupervisionManifestTests {
  @Test func jsonAndPlistDecodeTheSamePolicy() throws {
    let json = decodeModules(
      """
      {"schemaVersion": 1, "modules": [
        {"name": "notes", "type": "NotesPlugin.NotesModule",
         "restart": {"policy": "on-failure", "maxRestarts": 5,
                     "backoff": {"initialSeconds": 0.25, "maxSeconds": 8}},
         "healthCheck": {"intervalSeconds": 10, "timeoutSeconds": 1.5}}]}
      """)
    let plist = decodeModules(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
        <key>schemaVersion</key><integer>1</integer>
        <key>modules</key><array><dict>
          <key>name</key><string>notes</string>
          <key>type</key><string>NotesPlugin.NotesModule</string>
          <key>restart</key><dict>
            <key>policy</key><string>on-failure</string>
            <key>maxRestarts</key><integer>5</integer>
            <key>backoff</key><dict>
              <key>initialSeconds</key><real>0.25</real>
              <key>maxSeconds</key><integer>8</integer>
            </dict>
          </dict>
          <key>healthCheck</key><dict>
            <key>intervalSeconds</key><integer>10</integer>
            <key>timeoutSeconds</key><real>1.5</real>
          </dict>
        </dict></array>
      </dict></plist>
      """, file: "modules/notes.plist")
    #expect(json.problems.isEmpty && plist.problems.isEmpty, "\(json.problems) \(plist.problems)")
    for set in [json, plist] {
      let module = try #require(set.modules.first)
      #expect(
        module.restart
          == RestartPolicy(policy: .onFailure, maxRestarts: 5, initialBackoff: 0.25, maxBackoff: 8))
      #expect(module.healthCheck == HealthCheckManifest(interval: 10, timeout: 1.5))
    }
  }

  @Test func defaultsAreNeverAndNoHealthCheck() throws {
    let set = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "P.A", "restart": {"policy": "on-failure"}, "healthCheck": {}}, {"name": "b", "type": "P.B"}]}"#
    )
    #expect(set.problems.isEmpty)
    #expect(set.modules.first?.restart == RestartPolicy(policy: .onFailure))
    #expect(set.modules.first?.restart.maxRestarts == 3)
    #expect(set.modules.first?.healthCheck == HealthCheckManifest(interval: 5, timeout: 2))
    #expect(set.modules.last?.restart == .never)
    #expect(set.modules.last?.healthCheck == nil)
  }

  @Test func badValuesAreReportedWhereTheyAre() {
    let text = """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "P.A",
         "restart": {"policy": "always", "maxRestarts": -1,
                     "backoff": {"initialSeconds": 4, "maxSeconds": 2, "jitter": 1}},
         "healthCheck": {"intervalSeconds": 0, "timeoutSecond": 1}}]}
      """
    #expect(
      decodeModules(text).problems.map(\.description) == [
        "modules/notes.json:3:26 modules[0].restart.policy: expected one of never, on-failure, "
          + #"found string "always""#,
        "modules/notes.json:3:51 modules[0].restart.maxRestarts: expected an integer of 0 or "
          + "more, found integer -1",
        "modules/notes.json:4:63 modules[0].restart.backoff.maxSeconds: expected at least "
          + "initialSeconds (4.0), found integer 2",
        "modules/notes.json:4:66 modules[0].restart.backoff.jitter: unknown key 'jitter' "
          + "(expected one of initialSeconds, maxSeconds)",
        "modules/notes.json:5:39 modules[0].healthCheck.intervalSeconds: expected a number of "
          + "seconds greater than 0 and at most 1000000, found integer 0",
        "modules/notes.json:5:42 modules[0].healthCheck.timeoutSecond: unknown key "
          + "'timeoutSecond' (did you mean 'timeoutSeconds'?)",
      ])
  }

  @Test func restartNeedsAPolicy() {
    let set = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "P.A", "restart": {"maxRestarts": 1}}]}"#
    )
    #expect(
      set.problems.map(\.message) == [
        "missing required key 'policy' (one of never, on-failure)"
      ])
  }
}
