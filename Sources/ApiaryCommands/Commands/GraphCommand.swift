import Apiary
import ApiarySupport
import ApiaryTooling

/// `apiary graph [DIR]`: the application as a DOT or Mermaid graph.
enum GraphCommand: HostCommand {
  static let name = "graph"
  static let summary = "Print the module graph as Graphviz DOT or Mermaid"
  static let usage = """
    USAGE: apiary graph [DIR] [--format dot|mermaid] [--services] [--targets] [--calls SOURCES]

    Prints the modules declared in DIR (default \(Host.defaultManifests)) as a graph: one group per
    level, each module labelled with its priority, an arrow from each module to each module it
    depends on. Dependency cycles are drawn in red; manifests with a cycle or other problems
    still give a graph (problems are listed on standard error, the exit status is 0). Render
    it with Graphviz: apiary graph --format dot | dot -Tsvg -o graph.svg

    OPTIONS:
      --manifests DIR   the same as DIR
      --format FORMAT   dot (default) or mermaid
      --services        add the services each module binds (dashed arrows)
      --targets         add the mediator targets each module exposes (dotted arrows)
      --calls SOURCES   add which module calls which target (bold arrows), found in the Swift
                        sources of each module under SOURCES/<Swift module of its type>: calls
                        through generated clients, perform(target:) and URLs
    """
  static let flags: Set<String> = ["--services", "--targets"]
  static let options: Set<String> = [OutputFormat.option, "--calls"]

  enum Format: String, CaseIterable { case dot, mermaid }

  static func run(_ arguments: Arguments) async -> Int32 {
    let format: Format
    do {
      format = try arguments.choice(OutputFormat.option, default: .dot)
    } catch {
      return Host.usageError(error, usage: usage)
    }
    let directory = arguments.manifests
    let set = ManifestLoader().load(directory: directory)
    guard set.application != nil || !set.modules.isEmpty else {
      for problem in set.problems { StandardError.print("\(problem)") }
      return ExitStatus.failure
    }
    for problem in set.problems { StandardError.print("warning: \(problem)") }
    if let sources = arguments.options["--calls"], FileKind(path: sources) != .directory {
      StandardError.print(
        "error: --calls \(sources): no such directory; expected the directory of the modules' Swift sources (SOURCES/<Swift module>)"
      )
      return ExitStatus.failure
    }
    let calls = arguments.options["--calls"].map {
      CallScanner.calls(modules: set.enabledModules, sources: $0)
    }
    let graph = ModuleGraph(
      modules: set.modules, services: arguments.flags.contains("--services"),
      targets: arguments.flags.contains("--targets"), calls: calls ?? [])
    switch format {
    case .dot:
      Output.out(lines: DOTRenderer.render(graph, title: set.application?.name ?? directory).lines)
    case .mermaid: Output.out(lines: MermaidRenderer.render(graph))
    }
    return ExitStatus.success
  }
}
