import Foundation
import Testing

/// `apiary graph` through the binary: DOT and Mermaid, levels, priorities, cycles in red, and
/// Graphviz accepting the output when it is installed.
@Suite struct GraphCommandTests {
  @Test func dotGroupsModulesByLevelWithPriorities() throws {
    let result = try HostProcess.run(["graph", HostProcess.manifests])
    #expect(result.status == 0, "\(result.stderr)")
    let dot = result.stdout
    #expect(dot.hasPrefix("digraph \"Notebook\" {"))
    let basic = try #require(dot.range(of: "subgraph \"cluster_basic\""))
    let normal = try #require(dot.range(of: "subgraph \"cluster_normal\""))
    let logging = try #require(dot.range(of: "\"logging\" [label=\"logging\\npriority 100\"]"))
    let notes = try #require(dot.range(of: "\"notes\" [label=\"notes\\npriority 10\"]"))
    #expect(basic.lowerBound < logging.lowerBound && logging.lowerBound < normal.lowerBound)
    #expect(normal.lowerBound < notes.lowerBound)
    #expect(dot.contains("\"notes\" -> \"store\";"))
    #expect(dot.contains("\"search\" -> \"notes\";"))
    #expect(!dot.contains("red"))
  }

  @Test func servicesAndTargetsAreOptionalEdges() throws {
    let plain = try HostProcess.run(["graph", HostProcess.manifests, "--format", "mermaid"])
    #expect(!plain.stdout.contains("exposes"))
    let result = try HostProcess.run([
      "graph", HostProcess.manifests, "--format", "mermaid", "--services", "--targets",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let mermaid = result.stdout
    #expect(mermaid.hasPrefix("flowchart BT"))
    #expect(mermaid.contains("subgraph level_basic[\"level basic\"]"))
    #expect(mermaid.contains("[\"notes<br/>priority 10\"]"))
    #expect(mermaid.contains("([\"service<br/>NotebookKit.Logger\"])"))
    #expect(mermaid.contains("[[\"target<br/>notes\"]]"))
    #expect(mermaid.contains("-. exposes .->"))
    #expect(mermaid.contains("-. provides .->"))
  }

  @Test func callsAreFoundInTheModulesSources() throws {
    let plugins = HostProcess.root.appendingPathComponent("Plugins/Notebook/Sources").path
    let result = try HostProcess.run(["graph", HostProcess.manifests, "--calls", plugins])
    #expect(result.status == 0, "\(result.stderr)")
    // SearchPlugin builds its index through the generated client: mediator.notes.list().
    #expect(result.stdout.contains("\"search\" -> \"target:notes\" [style=bold, label=\"calls\""))
    #expect(!result.stdout.contains("\"notes\" -> \"target:notes\" [style=bold"))
    #expect(result.stdout.contains("\"target:notes\" [label=\"target\\nnotes\""))
  }

  /// A `--calls` directory that is not there is an error, not a graph without calls.
  @Test func callsFromAMissingDirectoryAreAnError() throws {
    let result = try HostProcess.run(["graph", HostProcess.manifests, "--calls", "/nonexistent"])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("--calls /nonexistent: no such directory"), "\(result.stderr)")
  }

  @Test func aCycleIsStillDrawnAndInRed() throws {
    let directory = try HostProcess.manifests([
      "app.json": BrokenManifestTests.app,
      "modules/m.json": """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "LoggingPlugin.LoggingModule", "dependencies": ["b"]},
        {"name": "b", "type": "LoggingPlugin.LoggingModule", "dependencies": ["a"]},
        {"name": "c", "type": "LoggingPlugin.LoggingModule", "dependencies": ["a"]}
      ]}
      """,
    ])
    let dot = try HostProcess.run(["graph", directory.path])
    #expect(dot.status == 0)
    #expect(dot.stderr.contains("dependency cycle"))
    #expect(dot.stdout.contains("\"a\" -> \"b\" [color=red"))
    #expect(dot.stdout.contains("\"b\" -> \"a\" [color=red"))
    #expect(dot.stdout.contains("\"c\" -> \"a\";"), "an edge into the cycle is not on it")
    let mermaid = try HostProcess.run(["graph", directory.path, "--format", "mermaid"])
    #expect(mermaid.stdout.contains("linkStyle 0,1 stroke:red"))
  }

  @Test func graphvizAcceptsTheSampleGraph() throws {
    guard
      let dot = ["/usr/bin/dot", "/usr/local/bin/dot"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else {
      print(
        "skipped: Graphviz 'dot' is not installed (apt-get install graphviz); .ci/run checks it")
      return
    }
    let graph = try HostProcess.run(["graph", HostProcess.manifests, "--services", "--targets"])
    let process = Process()
    process.executableURL = URL(fileURLWithPath: dot)
    process.arguments = ["-Tsvg"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data(graph.stdout.utf8))
    try input.fileHandleForWriting.close()
    let svg = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(svg.contains("<svg"))
    #expect(svg.contains("priority 100"))
  }
}
