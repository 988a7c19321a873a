import ApiaryManifest

/// The application as a graph, for `apiary graph`: modules grouped by level, dependencies as
/// edges, and optionally the services and targets each module provides. Edges on a dependency
/// cycle (the ones validation reports) are marked, so a renderer can draw them in red; a set of
/// manifests with a cycle still has a graph.
///
/// ```swift
/// let graph = ModuleGraph(modules: set.modules, services: true, targets: false)
/// print(DOTRenderer.render(graph, title: "Notebook"))
/// ```
package struct ModuleGraph: Sendable {
  package struct Node: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
      case module(level: ModuleManifest.Level, priority: Int, isEnabled: Bool)
      /// A dependency that names no declared module.
      case missingModule
      case service
      case target
    }
    /// Unique among the graph's nodes: the module name, `service:Protocol[#name]`,
    /// `target:name`.
    package let id: String
    package let label: String
    package let kind: Kind
  }

  package struct Edge: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
      /// `from` depends on `to`: `to` starts first.
      case dependency
      /// Module `from` binds the service `to`.
      case provides
      /// Module `from` exposes the target `to`.
      case exposes
      /// Module `from` calls the target `to`.
      case calls
    }
    package let from: String
    package let to: String
    package let kind: Kind
    /// On a dependency cycle (or a module depending on itself).
    package var isOnCycle = false
  }

  /// Modules (declared order), then services, then targets.
  package private(set) var nodes: [Node] = []
  package private(set) var edges: [Edge] = []

  /// A module that calls a target (see ``CallScanner``).
  package struct Call: Sendable, Hashable {
    package let module: String
    package let target: String

    package init(module: String, target: String) {
      self.module = module
      self.target = target
    }
  }

  /// The graph of `modules`; `calls` adds an edge from each calling module to the target (and
  /// the target nodes, as `targets` does).
  package init(
    modules: [ModuleManifest], services: Bool = false, targets: Bool = false, calls: [Call] = []
  ) {
    var seen: Set<String> = []
    for module in modules where seen.insert(module.name).inserted {
      let kind = Node.Kind.module(
        level: module.level, priority: module.priority, isEnabled: module.isEnabled)
      nodes.append(Node(id: module.name, label: module.name, kind: kind))
    }
    for module in modules {
      for dependency in module.dependencies {
        if seen.insert(dependency).inserted {
          nodes.append(Node(id: dependency, label: dependency, kind: .missingModule))
        }
        edges.append(Edge(from: module.name, to: dependency, kind: .dependency))
      }
    }
    markCycles(modules)
    if services { addServices(modules) }
    if targets || !calls.isEmpty { addTargets(modules) }
    for call in calls where nodes.contains(where: { $0.id == "target:" + call.target }) {
      edges.append(Edge(from: call.module, to: "target:" + call.target, kind: .calls))
    }
  }

  /// Marks the edges of each cycle validation reports, and every self dependency.
  private mutating func markCycles(_ modules: [ModuleManifest]) {
    var first: [String: Int] = [:]
    for (index, module) in modules.enumerated() where first[module.name] == nil {
      first[module.name] = index
    }
    var onCycle: Set<[String]> = []
    var adjacency = [[Int]](repeating: [], count: modules.count)
    for (index, module) in modules.enumerated() where module.isEnabled {
      guard first[module.name] == index else { continue }
      for name in module.dependencies {
        if name == module.name { onCycle.insert([name, name]) }
        guard let target = first[name], target != index, modules[target].isEnabled else {
          continue
        }
        adjacency[index].append(target)
      }
    }
    for cycle in ManifestValidator.cycles(adjacency) {
      for (position, node) in cycle.enumerated() {
        let next = cycle[(position + 1) % cycle.count]
        onCycle.insert([modules[node].name, modules[next].name])
      }
    }
    for index in edges.indices where onCycle.contains([edges[index].from, edges[index].to]) {
      edges[index].isOnCycle = true
    }
  }

  private mutating func addServices(_ modules: [ModuleManifest]) {
    var seen: Set<String> = []
    for module in modules {
      for service in module.services {
        let label = service.protocolName + (service.name.map { " #\($0)" } ?? "")
        let id = "service:" + label
        if seen.insert(id).inserted {
          nodes.append(Node(id: id, label: label, kind: .service))
        }
        edges.append(Edge(from: module.name, to: id, kind: .provides))
      }
    }
  }

  private mutating func addTargets(_ modules: [ModuleManifest]) {
    var seen: Set<String> = []
    for module in modules where module.isEnabled {
      for target in module.targets {
        let id = "target:" + target.name
        if seen.insert(id).inserted {
          nodes.append(Node(id: id, label: target.name, kind: .target))
        }
        edges.append(Edge(from: module.name, to: id, kind: .exposes))
      }
    }
  }

  /// The module nodes of `level`, in declared order.
  package func modules(at level: ModuleManifest.Level) -> [Node] {
    nodes.filter { node in
      if case .module(let nodeLevel, _, _) = node.kind { return nodeLevel == level }
      return false
    }
  }

  /// Nodes outside the level groups: missing modules, services and targets.
  package var ungroupedNodes: [Node] {
    nodes.filter { node in
      if case .module = node.kind { return false }
      return true
    }
  }
}

extension ModuleGraph.Node {
  /// The text a renderer shows: the name, then `priority N` for modules.
  package var caption: [String] {
    switch kind {
    case .module(_, let priority, let isEnabled):
      [label, "priority \(priority)"] + (isEnabled ? [] : ["disabled"])
    case .missingModule: [label, "not declared"]
    case .service: ["service", label]
    case .target: ["target", label]
    }
  }
}
