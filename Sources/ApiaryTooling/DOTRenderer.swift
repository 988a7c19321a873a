import ApiaryManifest

/// Renders a ``ModuleGraph`` as Graphviz DOT (`apiary graph --format dot | dot -Tsvg`): one
/// cluster per level, modules as boxes labelled with their priority, dependency arrows from a
/// module to what it depends on, cycles in red, services as ellipses and targets as components.
///
/// ```swift
/// DOTRenderer.render(ModuleGraph(modules: modules), title: "Notebook")
/// // digraph "Notebook" { … subgraph "cluster_basic" { label="level basic"; … } … }
/// ```
package enum DOTRenderer {
  package static func render(_ graph: ModuleGraph, title: String) -> String {
    var lines = [
      "digraph \(quote(title)) {",
      "  label=\(quote(title)); labelloc=t; fontname=\"Helvetica\"; rankdir=BT;",
      "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#fff8dc\", fontname=\"Helvetica\"];",
      "  edge [fontname=\"Helvetica\", fontsize=10];",
    ]
    for level in [ModuleManifest.Level.basic, .normal] {
      let members = graph.modules(at: level)
      guard !members.isEmpty else { continue }
      lines.append("  subgraph \(quote("cluster_" + level.rawValue)) {")
      lines.append(
        "    label=\(quote("level " + level.rawValue)); labelloc=b; style=dashed; color=gray50;")
      for node in members { lines.append("    " + statement(node)) }
      lines.append("  }")
    }
    for node in graph.ungroupedNodes { lines.append("  " + statement(node)) }
    for edge in graph.edges { lines.append("  " + statement(edge)) }
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  private static func statement(_ node: ModuleGraph.Node) -> String {
    let label = "label=" + quote(node.caption.joined(separator: "\n"))
    let style: String
    switch node.kind {
    case .module(_, _, let isEnabled):
      style = isEnabled ? "" : ", style=\"rounded,dashed\", fontcolor=gray40"
    case .missingModule: style = ", style=dashed, color=red, fontcolor=red"
    case .service: style = ", shape=ellipse, fillcolor=\"#e6f0ff\""
    case .target: style = ", shape=component, fillcolor=\"#e8f5e9\""
    }
    return "\(quote(node.id)) [\(label)\(style)];"
  }

  private static func statement(_ edge: ModuleGraph.Edge) -> String {
    var attributes: [String] = []
    switch edge.kind {
    case .dependency: break
    case .provides: attributes += ["style=dashed", "label=\"provides\"", "color=\"#3b6fb6\""]
    case .exposes: attributes += ["style=dotted", "label=\"exposes\"", "color=\"#2e7d32\""]
    case .calls: attributes += ["style=bold", "label=\"calls\"", "color=\"#8e24aa\""]
    }
    if edge.isOnCycle { attributes += ["color=red", "fontcolor=red", "penwidth=2"] }
    let list = attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]"
    return "\(quote(edge.from)) -> \(quote(edge.to))\(list);"
  }

  /// A DOT string literal: `"` and `\` escaped, newlines as `\n`.
  static func quote(_ text: String) -> String {
    var out = "\""
    for character in text {
      switch character {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default: out.append(character)
      }
    }
    return out + "\""
  }
}
