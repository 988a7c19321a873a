import ApiaryManifest

/// Renders a ``ModuleGraph`` as a Mermaid flowchart (GitHub and many editors draw it inline):
/// one subgraph per level, the same nodes and edges as ``DOTRenderer``, cycles in red.
///
/// ```swift
/// MermaidRenderer.render(ModuleGraph(modules: modules)).joined(separator: "\n")
/// // flowchart BT
/// //   subgraph level_basic["level basic"] …
/// ```
package enum MermaidRenderer {
  /// The flowchart a line an element: a label keeps a newline from a manifest in its line, for
  /// the host to escape.
  package static func render(_ graph: ModuleGraph) -> [String] {
    var ids: [String: String] = [:]
    for (index, node) in graph.nodes.enumerated() { ids[node.id] = "n\(index)" }
    func id(_ name: String) -> String { ids[name] ?? "missing" }
    var lines = ["flowchart BT"]
    for level in [ModuleManifest.Level.basic, .normal] {
      let members = graph.modules(at: level)
      guard !members.isEmpty else { continue }
      lines.append("  subgraph level_\(level.rawValue)[\"level \(level.rawValue)\"]")
      for node in members { lines.append("    " + statement(node, id: id(node.id))) }
      lines.append("  end")
    }
    for node in graph.ungroupedNodes { lines.append("  " + statement(node, id: id(node.id))) }
    var cycleEdges: [Int] = []
    for (index, edge) in graph.edges.enumerated() {
      let arrow: String
      switch edge.kind {
      case .dependency: arrow = "-->"
      case .provides: arrow = "-. provides .->"
      case .exposes: arrow = "-. exposes .->"
      case .calls: arrow = "== calls ==>"
      }
      lines.append("  \(id(edge.from)) \(arrow) \(id(edge.to))")
      if edge.isOnCycle { cycleEdges.append(index) }
    }
    if !cycleEdges.isEmpty {
      let list = cycleEdges.map(String.init).joined(separator: ",")
      lines.append("  linkStyle \(list) stroke:red,stroke-width:2px")
    }
    return lines
  }

  private static func statement(_ node: ModuleGraph.Node, id: String) -> String {
    let text = quote(node.caption.joined(separator: "<br/>"))
    switch node.kind {
    case .module, .missingModule: return "\(id)[\(text)]"
    case .service: return "\(id)([\(text)])"
    case .target: return "\(id)[[\(text)]]"
    }
  }

  /// A Mermaid label in double quotes; a quote inside becomes `#quot;`.
  static func quote(_ text: String) -> String {
    "\"" + text.replacing("\"", with: "#quot;") + "\""
  }
}
