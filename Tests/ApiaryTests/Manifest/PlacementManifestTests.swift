import Apiary
import Testing

/// A module's `placement` and `command`, in JSON and plist.
@Suite struct PlacementManifestTests {
  @Test func jsonAndPlistPlaceAModuleInAProcess() throws {
    let json = decodeModules(
      """
      {"schemaVersion": 1, "modules": [
        {"name": "greeter", "type": "Python.Greeter", "placement": "process",
         "command": ["python3", "./greeter.py"]}]}
      """, file: "modules/greeter.json")
    let plist = decodeModules(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
        <key>schemaVersion</key><integer>1</integer>
        <key>modules</key><array><dict>
          <key>name</key><string>greeter</string>
          <key>type</key><string>Python.Greeter</string>
          <key>placement</key><string>process</string>
          <key>command</key><array><string>python3</string><string>./greeter.py</string></array>
        </dict></array>
      </dict></plist>
      """, file: "modules/greeter.plist")
    #expect(json.problems.isEmpty && plist.problems.isEmpty, "\(json.problems) \(plist.problems)")
    for set in [json, plist] {
      let module = try #require(set.modules.first)
      #expect(module.placement == .process)
      #expect(module.command == ["python3", "./greeter.py"])
    }
  }

  @Test func placementDefaultsToTheHost() throws {
    let set = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "notes", "type": "N.M"}]}"#, file: "m.json")
    #expect(set.modules.first?.placement == .host)
    #expect(set.modules.first?.command == nil)
  }

  @Test func badPlacementAndCommandAreReportedWhereTheyAre() {
    let set = decodeModules(
      """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "N.M", "placement": "child"},
        {"name": "b", "type": "N.M", "command": ["x"]},
        {"name": "c", "type": "N.M", "placement": "process", "command": []}]}
      """, file: "m.json")
    let problems = set.problems.map(\.description)
    #expect(problems.count == 3, "\(problems)")
    #expect(problems.contains { $0.hasPrefix("m.json:2:45 modules[0].placement: ") })
    #expect(
      problems.contains {
        $0.hasPrefix("m.json:3:43 modules[1].command: 'command' starts a process-placed module")
      })
    #expect(
      problems.contains {
        $0 == "m.json:4:67 modules[2].command: expected the program and its arguments, found an "
          + "empty array"
      })
  }

  /// A command whose program is empty was accepted, and the child then failed to start with
  /// `cannot start /root/.cargo/bin/: posix_spawn failed: Permission denied` (the first `PATH`
  /// directory joined with the empty name).
  @Test func anEmptyProgramIsReportedWhereItIs() {
    let text = """
      {"schemaVersion": 1, "modules": [
        {"name": "c", "type": "N.M", "placement": "process", "command": ["", "x"]}]}
      """
    let set = decodeModules(text, file: "m.json")
    #expect(
      set.problems.map(\.description) == [
        "m.json:2:68 modules[0].command[0]: expected the program to start (its name or path), "
          + "found an empty string"
      ])
    #expect(ModuleFileTokenTests.fromTokens(text) == nil)
  }
}
