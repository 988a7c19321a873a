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

  /// Orders the enabled modules of `manifests`; disabled modules are left out.
  package init(modules manifests: [ModuleManifest]) throws(PlanError) {
    let enabled = manifests.filter(\.isEnabled)
    var index: [String: Int] = [:]
    index.reserveCapacity(enabled.count)
    for (position, module) in enabled.enumerated() {
      guard index.updateValue(position, forKey: module.name) == nil else {
        throw .duplicateModule(module.name)
      }
    }
    var waitingOn = [Int](repeating: 0, count: enabled.count)
    var dependents = [[Int]](repeating: [], count: enabled.count)
    for (position, module) in enabled.enumerated() {
      // A repeated dependency counts twice here and is counted down twice, so it needs no set.
      for dependency in module.dependencies {
        guard let dependencyPosition = index[dependency] else {
          throw .unknownDependency(module: module.name, dependency: dependency)
        }
        waitingOn[position] += 1
        dependents[dependencyPosition].append(position)
      }
    }
    var ready = Heap<Key>()
    func key(_ position: Int) -> Key {
      let module = enabled[position]
      return Key(
        level: module.level == .basic ? 0 : 1, priority: module.priority, position: position)
    }
    for position in enabled.indices where waitingOn[position] == 0 { ready.push(key(position)) }
    var ordered: [ModuleManifest] = []
    ordered.reserveCapacity(enabled.count)
    while let next = ready.pop() {
      ordered.append(enabled[next.position])
      for dependent in dependents[next.position] {
        waitingOn[dependent] -= 1
        if waitingOn[dependent] == 0 { ready.push(key(dependent)) }
      }
    }
    guard ordered.count == enabled.count else {
      let stuck = enabled.indices.filter { waitingOn[$0] > 0 }.map { enabled[$0].name }
      throw .cycle(among: stuck)
    }
    self.modules = ordered
  }

  /// The lazy modules that stay dormant at boot: every lazy module except those an eager module
  /// needs, directly or through other modules, which start at boot with it.
  ///
  /// ```swift
  /// plan.dormantModules()  // ["search"]
  /// ```
  package func dormantModules() -> Set<String> {
    var dormant = Set<String>()
    walkBackwards { module, isDormant in if isDormant { dormant.insert(module.name) } }
    return dormant
  }

  /// Calls `body` with each module of ``modules`` from the last to the first, and whether it
  /// stays dormant at boot (see ``dormantModules()``): one pass over the plan
  /// for a caller that also reads each module.
  package func walkBackwards(_ body: (ModuleManifest, _ isDormant: Bool) -> Void) {
    let anyLazy = modules.contains(where: \.isLazy)
    var needed = Set<String>()
    // Dependents come after their dependencies, so walking backwards sees every module's
    // dependents before the module itself.
    for position in modules.indices.reversed() {
      let module = modules[position]
      if anyLazy, module.isLazy, !needed.contains(module.name) {
        body(module, true)
      } else {
        if anyLazy { needed.formUnion(module.dependencies) }
        body(module, false)
      }
    }
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
