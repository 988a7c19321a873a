import Foundation
import Testing

/// Lazy modules through the `apiary` executable: the sample's `search` sleeps until used.
@Suite struct LazyActivationHostTests {
  @Test func searchIsDormantUntilItsFirstQueryThenWakesAndIsProfiled() throws {
    let input = """
      :modules
      notebook://search/query?q=milk
      :modules

      """
    let result = try HostProcess.run(
      ["run", HostProcess.manifests, "--profile"], input: HostProcess.oneByOne(input),
      in: HostProcess.temporaryDirectory())
    #expect(result.status == 0, "\(result.stderr)")
    let dormant = result.stdout.range(of: "search       dormant")
    let running = result.stdout.range(of: "search       running")
    #expect(dormant != nil && running != nil, "\(result.stdout)")
    if let dormant, let running { #expect(dormant.lowerBound < running.lowerBound) }
    #expect(result.stderr.contains("ready: 3 modules running"), "\(result.stderr)")
    #expect(
      result.stderr.contains("search       activate ok (")
        && result.stderr.contains("woken by call to target 'search')"), "\(result.stderr)")
    // The profile lists the wake-up with its trigger.
    #expect(result.stdout.contains("woke in   woken by"), "\(result.stdout)")
    #expect(result.stdout.contains("call to target 'search'"))
    // Woken last, torn down first.
    let tearDowns = result.stderr.split(separator: "\n").filter { $0.contains(" tearDown ") }
      .compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) }
    #expect(tearDowns == ["search", "notes", "store", "logging"], "\(result.stderr)")
  }

  @Test func aSavedNoteWakesSearchThroughItsActivationEvent() throws {
    let input = """
      notebook://notes/create?title=Buy%20milk
      :modules
      notebook://search/query?q=milk

      """
    let result = try HostProcess.run(
      ["run", HostProcess.manifests, "--profile", "--format", "json"],
      input: HostProcess.oneByOne(input),
      in: HostProcess.temporaryDirectory())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("search       running"), "\(result.stdout)")
    #expect(result.stdout.contains(#"[{"id":1,"title":"Buy milk"}]"#), "\(result.stdout)")
    #expect(result.stdout.contains(#""trigger":"event 'note.saved'""#), "\(result.stdout)")
  }

  @Test func planMarksLazyModulesAndTheirTriggers() throws {
    let result = try HostProcess.run(["plan", HostProcess.manifests])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains("lazy: call to target 'search', event 'note.saved'"),
      "\(result.stdout)")
    #expect(result.stdout.contains("activation"))
    let json = try HostProcess.run(["plan", HostProcess.manifests, "--format", "json"])
    #expect(json.stdout.contains(#""activation":"lazy""#))
    #expect(json.stdout.contains(#""dormant":true"#))
  }

  @Test func validateReportsALazyModuleWithoutATrigger() throws {
    let directory = HostProcess.temporaryDirectory()
    let files = FileManager.default
    try files.createDirectory(
      at: directory.appendingPathComponent("modules"), withIntermediateDirectories: true)
    try #"{"schemaVersion": 1, "name": "Lazy", "scheme": "lazy"}"#.write(
      to: directory.appendingPathComponent("app.json"), atomically: true, encoding: .utf8)
    try """
    {"schemaVersion": 1, "modules": [
      {"name": "idle", "type": "ApiaryCommands.NoSuchModule", "activation": "lazy"}
    ]}
    """.write(
      to: directory.appendingPathComponent("modules/idle.json"), atomically: true, encoding: .utf8)
    let result = try HostProcess.run(["validate", directory.path])
    #expect(result.status != 0)
    let output = result.stdout + result.stderr
    #expect(
      output.contains(
        "modules/idle.json:2:73 modules[0].activation: lazy module 'idle' declares no "
          + "services, targets or activationEvents"), "\(output)")
  }
}
