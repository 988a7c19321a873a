import ApiaryManifest
import ApiarySupport

/// The order modules boot in: dependencies first, then level (basic before normal), then priority
/// (higher first), then manifest order. Deterministic, O(n log n) in modules plus dependencies.
///
/// ```swift
/// let plan = try BootPlan(modules: manifests)
/// plan.modules.map(\.name)  // ["logging", "store", "notes", "search"]
/// ```
package struct BootPlan: Sendable {
  /// Enabled modules in boot order.
  package let modules: [ModuleManifest]
  /// Their names and ``orderKey(_:)``s, in the same order, found while ordering them: the
  /// kernel's boot order without reading each manifest again.
  package let names: [String]
  package let orderKeys: [(Int, Int)]
  /// Each module's index in ``modules``, by name: the table that checked names for duplicates,
  /// handed on so the kernel does not hash every name again.
  package let positions: [String: Int]
  /// Whether any of them is lazy (or background), found while ordering them.
  private let hasLazyModules: Bool
  /// Each module's dependencies, by index in ``modules``.
  private let dependencies: Adjacency

  /// Orders the enabled modules of `manifests`; disabled modules are left out. With the
  /// validator's `index` of them (see ``ModuleIndex``), their names and dependencies are not
  /// looked up again when every one is enabled.
  package init(modules manifests: [ModuleManifest], index: ModuleIndex? = nil) throws(PlanError) {
    if let index, index.indexes(manifests), let graph = Graph(manifests, index: index) {
      try self.init(manifests, graph)
    } else {
      try self.init(manifests, Graph(manifests))
    }
  }

  /// The enabled modules of a plan, numbered in manifest order, and their dependency edges.
  private struct Graph {
    /// The position in the manifests of each enabled module.
    var enabled: [Int] = []
    var keys: [Key] = []
    /// Each enabled module's number, by name.
    var index: [String: Int] = [:]
    /// From each dependency to its dependent, by number.
    var edges: [(from: Int, to: Int)] = []
    var hasLazyModules = false

    /// One pass over the manifests: modules are numbered in the order they are enabled, and a
    /// dependency on a module already numbered becomes an edge at once; one declared later is
    /// resolved after the pass.
    init(_ manifests: [ModuleManifest]) throws(PlanError) {
      enabled.reserveCapacity(manifests.count)
      keys.reserveCapacity(manifests.count)
      index.reserveCapacity(manifests.count)
      edges.reserveCapacity(2 * manifests.count)
      var later: [(dependent: Int, dependency: String)] = []
      for position in manifests.indices {
        let module = manifests[position]
        guard module.isEnabled else { continue }
        hasLazyModules = hasLazyModules || module.isLazy
        let dependent = enabled.count
        guard index.updateValue(dependent, forKey: module.name) == nil else {
          throw .duplicateModule(module.name)
        }
        keys.append(Key(module, position: dependent))
        enabled.append(position)
        // A repeated dependency is an edge twice, counted down twice, so it needs no set.
        for dependency in module.dependencies {
          if let found = index[dependency] {
            edges.append((found, dependent))
          } else {
            later.append((dependent, dependency))
          }
        }
      }
      for (dependent, dependency) in later {
        guard let found = index[dependency] else {
          throw .unknownDependency(
            module: manifests[enabled[dependent]].name, dependency: dependency)
        }
        edges.append((found, dependent))
      }
    }

    /// The graph of `manifests` from the validator's `index` of them, which has every name and
    /// dependency by position already: the enabled modules' numbers are their positions. Nil
    /// when a module is disabled, which would number them differently.
    init?(_ manifests: [ModuleManifest], index: ModuleIndex) {
      enabled = Array(manifests.indices)
      keys.reserveCapacity(manifests.count)
      for position in manifests.indices {
        let module = manifests[position]
        guard module.isEnabled else { return nil }
        hasLazyModules = hasLazyModules || module.isLazy
        keys.append(Key(module, position: position))
      }
      self.index = index.positions
      let dependencies = index.dependencies
      edges.reserveCapacity(2 * manifests.count)
      for dependent in manifests.indices {
        for edge in dependencies.edges(of: dependent) {
          edges.append((dependencies.target(at: edge), dependent))
        }
      }
    }
  }

  private init(_ manifests: [ModuleManifest], _ graph: Graph) throws(PlanError) {
    let (enabled, keys, index, edges) = (graph.enabled, graph.keys, graph.index, graph.edges)
    var waitingOn = [Int](repeating: 0, count: enabled.count)
    for edge in edges { waitingOn[edge.to] += 1 }
    let dependents = Adjacency(count: enabled.count, edges: edges)
    var ready = Heap<Key>()
    for position in enabled.indices where waitingOn[position] == 0 { ready.push(keys[position]) }
    // Each module's place in the boot order; the manifests (with their names and keys) are then
    // copied into their places in manifest order, which reads them in the order they were
    // decoded into memory. Every module is popped once, so without a cycle every place is
    // filled.
    var place = [Int](repeating: 0, count: enabled.count)
    var placed = 0
    while let next = ready.pop() {
      place[next.position] = placed
      placed += 1
      for dependent in dependents[next.position] {
        waitingOn[dependent] -= 1
        if waitingOn[dependent] == 0 { ready.push(keys[dependent]) }
      }
    }
    guard placed == enabled.count else {
      let stuck = enabled.indices.filter { waitingOn[$0] > 0 }.map { manifests[enabled[$0]].name }
      throw .cycle(among: stuck)
    }
    self.hasLazyModules = graph.hasLazyModules
    var names = [String](repeating: "", count: placed)
    var orderKeys = [(Int, Int)](repeating: (0, 0), count: placed)
    self.modules = [ModuleManifest](unsafeUninitializedCapacity: placed) { buffer, count in
      for (at, position) in enabled.enumerated() {
        let manifest = manifests[position]
        names[place[at]] = manifest.name
        orderKeys[place[at]] = (keys[at].level, keys[at].rank)
        buffer.initializeElement(at: place[at], to: manifest)
      }
      count = placed
    }
    (self.names, self.orderKeys) = (names, orderKeys)
    dependencies = Adjacency(
      count: placed, edges: edges.map { (from: place[$0.to], to: place[$0.from]) })
    // Same keys, so the values are replaced in place, without hashing a name again.
    self.positions = index.mapValues { place[$0] }
  }

  /// The lazy modules that stay dormant at boot: every lazy module except those an eager module
  /// needs, directly or through other modules, which start at boot with it.
  ///
  /// ```swift
  /// plan.dormantModules()  // ["search"]
  /// ```
  package func dormantModules() -> Set<String> {
    var dormant = Set<String>()
    walkBackwards { module, _, isDormant in if isDormant { dormant.insert(module.name) } }
    return dormant
  }

  /// Calls `body` with each module of ``modules`` from the last to the first, its index there,
  /// and whether it stays dormant at boot (see ``dormantModules()``): one pass over the plan
  /// for a caller that also reads each module.
  package func walkBackwards(_ body: (ModuleManifest, _ position: Int, _ isDormant: Bool) -> Void) {
    let anyLazy = hasLazyModules
    var needed = anyLazy ? [Bool](repeating: false, count: modules.count) : []
    // Dependents come after their dependencies, so walking backwards sees every module's
    // dependents before the module itself.
    for position in modules.indices.reversed() {
      let module = modules[position]
      if anyLazy, module.isLazy, !needed[position] {
        body(module, position, true)
      } else {
        if anyLazy {
          for edge in dependencies.edges(of: position) {
            needed[dependencies.target(at: edge)] = true
          }
        }
        body(module, position, false)
      }
    }
  }

  /// Basic before normal, then higher priority first: the order among modules whose
  /// dependencies have started, as a pair compared ascending. `~priority` (that is
  /// `-priority - 1`) reverses the order without overflowing for `Int.min`, which a manifest may
  /// hold.
  package static func orderKey(_ manifest: ModuleManifest) -> (Int, Int) {
    // A switch, not `==`, which would go through `Equatable` for every module.
    switch manifest.level {
    case .basic: (0, ~manifest.priority)
    case .normal: (1, ~manifest.priority)
    }
  }

  /// A module's ``orderKey(_:)`` and its position among the enabled modules, which breaks ties.
  private struct Key: Comparable {
    let level: Int
    let rank: Int
    let position: Int

    init(_ module: ModuleManifest, position: Int) {
      (level, rank) = BootPlan.orderKey(module)
      self.position = position
    }

    static func < (lhs: Key, rhs: Key) -> Bool {
      (lhs.level, lhs.rank, lhs.position) < (rhs.level, rhs.rank, rhs.position)
    }
  }
}

/// Why modules cannot be ordered. The manifest validator reports these with file and key path
/// first; the plan checks again so a kernel built in code gets the same guarantees.
package enum PlanError: Error, Sendable, Hashable, CustomStringConvertible {
  case duplicateModule(String)
  case unknownDependency(module: String, dependency: String)
  case cycle(among: [String])

  public var description: String {
    switch self {
    case .duplicateModule(let name): "module '\(name)' is declared twice"
    case .unknownDependency(let module, let dependency):
      "module '\(module)' depends on '\(dependency)', which is not an enabled module"
    case .cycle(let names): "dependency cycle among: \(names.joined(separator: ", "))"
    }
  }
}
