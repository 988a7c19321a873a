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
  /// The names of ``modules`` and their ``orderKey(_:)``s, in the same order: the kernel's
  /// tables are built from them without reading each manifest again.
  package let names: [String]
  package let orderKeys: [(Int, Int)]

  /// Orders the enabled modules of `manifests`; disabled modules are left out.
  package init(modules manifests: [ModuleManifest]) throws(PlanError) {
    // One pass reads what ordering needs from each manifest; the rest works on positions
    // (among the enabled modules), so each manifest is touched once more, to be placed.
    var index: [String: Int] = [:]
    index.reserveCapacity(manifests.count)
    var positions: [Int] = []  // each enabled module's index in `manifests`
    positions.reserveCapacity(manifests.count)
    var keys: [Key] = []
    keys.reserveCapacity(manifests.count)
    var dependencies: [[String]] = []
    dependencies.reserveCapacity(manifests.count)
    for (offset, module) in manifests.enumerated() where module.isEnabled {
      let position = positions.count
      guard index.updateValue(position, forKey: module.name) == nil else {
        throw .duplicateModule(module.name)
      }
      positions.append(offset)
      keys.append(
        Key(level: module.level == .basic ? 0 : 1, priority: module.priority, position: position))
      dependencies.append(module.dependencies)
    }
    let count = positions.count
    // The dependency edges, then each module's dependents as one slice of `dependents`
    // (`first[d]..<first[d + 1]`). A repeated dependency counts twice in `waitingOn` and is
    // counted down twice, so it needs no set.
    var waitingOn = [Int](repeating: 0, count: count)
    var edges: [(dependency: Int, dependent: Int)] = []
    edges.reserveCapacity(count)
    var first = [Int](repeating: 0, count: count + 1)
    for position in 0..<count {
      for dependency in dependencies[position] {
        guard let dependencyPosition = index[dependency] else {
          throw .unknownDependency(
            module: manifests[positions[position]].name, dependency: dependency)
        }
        waitingOn[position] += 1
        first[dependencyPosition + 1] += 1
        edges.append((dependencyPosition, position))
      }
    }
    for position in 0..<count { first[position + 1] += first[position] }
    var filled = first
    var dependents = [Int](repeating: 0, count: edges.count)
    for (dependency, dependent) in edges {
      dependents[filled[dependency]] = dependent
      filled[dependency] += 1
    }
    var ready = Heap<Key>()
    for position in 0..<count where waitingOn[position] == 0 { ready.push(keys[position]) }
    var ordered: [ModuleManifest] = []
    ordered.reserveCapacity(count)
    var names: [String] = []
    names.reserveCapacity(count)
    var orderKeys: [(Int, Int)] = []
    orderKeys.reserveCapacity(count)
    while let next = ready.pop() {
      let module = manifests[positions[next.position]]
      ordered.append(module)
      names.append(module.name)
      orderKeys.append((next.level, ~next.priority))
      for dependent in dependents[first[next.position]..<first[next.position + 1]] {
        waitingOn[dependent] -= 1
        if waitingOn[dependent] == 0 { ready.push(keys[dependent]) }
      }
    }
    guard ordered.count == count else {
      let stuck = (0..<count).filter { waitingOn[$0] > 0 }.map { manifests[positions[$0]].name }
      throw .cycle(among: stuck)
    }
    self.modules = ordered
    self.names = names
    self.orderKeys = orderKeys
  }

  /// Basic before normal, then higher priority first: the order among modules whose
  /// dependencies have started. `~priority` (that is `-priority - 1`) reverses the order
  /// without overflowing for `Int.min`, which a manifest may hold.
  package static func orderKey(_ manifest: ModuleManifest) -> (Int, Int) {
    (manifest.level == .basic ? 0 : 1, ~manifest.priority)
  }

  /// The lazy modules that stay dormant at boot: every lazy module except those an eager module
  /// needs, directly or through other modules, which start at boot with it.
  ///
  /// ```swift
  /// plan.dormantModules()  // ["search"]
  /// ```
  package func dormantModules() -> Set<String> {
    Set(zip(modules, dormantFlags()).lazy.filter(\.1).map(\.0.name))
  }

  /// For each module of ``modules``, in order, whether it stays dormant at boot (see
  /// ``dormantModules()``): the kernel splits its boot with it, without a lookup by name.
  package func dormantFlags() -> [Bool] {
    var dormant = [Bool](repeating: false, count: modules.count)
    guard modules.contains(where: \.isLazy) else { return dormant }
    var needed = Set<String>()
    // Dependents come after their dependencies, so walking backwards sees every module's
    // dependents before the module itself.
    for position in modules.indices.reversed() {
      let module = modules[position]
      if module.isLazy, !needed.contains(module.name) {
        dormant[position] = true
      } else {
        needed.formUnion(module.dependencies)
      }
    }
    return dormant
  }

  private struct Key: Comparable {
    let level: Int
    let priority: Int
    let position: Int

    static func < (lhs: Key, rhs: Key) -> Bool {
      if lhs.level != rhs.level { return lhs.level < rhs.level }
      if lhs.priority != rhs.priority { return lhs.priority > rhs.priority }
      return lhs.position < rhs.position
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
