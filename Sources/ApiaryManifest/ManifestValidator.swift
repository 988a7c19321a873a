import ApiarySupport

/// Checks the Swift type names one module uses, called for each enabled module in order; one
/// check serves one validation, so it may remember what it has looked up.
package typealias TypeCheck = (ModuleManifest) -> [ManifestProblem]

/// Checks a whole application's modules against each other: duplicate names, unknown, disabled
/// and self dependencies, dependency cycles, duplicate targets, actions, parameters and
/// services, and parameter defaults. Linear in the size of the manifests.
///
/// Type names are checked by `checkTypes` (a ``TypeCheck``), which the kernel supplies: this
/// layer knows names, not Swift types.
///
/// Disabled modules are checked for duplicate names only: they are never loaded, so their types
/// need not be linked and their dependencies do not matter.
package struct ManifestValidator {
  private var problems: [ManifestProblem] = []
  /// The modules' names and dependency graph, kept once they are found to have no problem.
  private var index: ModuleIndex?

  /// The problems of `modules` and, when there are none, their ``ModuleIndex``.
  static func validate(
    application: ApplicationManifest?, modules: [ModuleManifest], checkTypes: TypeCheck?
  ) -> (problems: [ManifestProblem], index: ModuleIndex?) {
    var validator = ManifestValidator()
    validator.check(modules, checkTypes)
    return (validator.problems, validator.index)
  }

  /// Where `module` (or something inside it, by `suffix`) was declared.
  package static func location(_ module: ModuleManifest, _ suffix: String = "")
    -> SourceLocation
  {
    var location = module.source ?? SourceLocation(file: "module '\(module.name)'")
    if !suffix.isEmpty {
      location.keyPath =
        location.keyPath.isEmpty
        ? String(suffix.drop { $0 == "." })
        : location.keyPath + suffix
    }
    return location
  }

  /// Like ``location(_:_:)`` for something with its own optional source.
  package static func location(
    _ source: SourceLocation?, in module: ModuleManifest, _ suffix: @autoclosure () -> String
  ) -> SourceLocation {
    source ?? location(module, suffix())
  }

  private mutating func check(_ modules: [ModuleManifest], _ checkTypes: TypeCheck?) {
    var firstByName: [String: Int] = [:]
    firstByName.reserveCapacity(modules.count)
    var isFirst = [Bool](repeating: false, count: modules.count)
    // Each module's flag, read once here rather than from its manifest at every dependency.
    var isEnabled = [Bool](repeating: false, count: modules.count)
    for (index, module) in modules.enumerated() {
      isEnabled[index] = module.isEnabled
      // One lookup for a new name; a repeated one puts the first index back.
      if let first = firstByName.updateValue(index, forKey: module.name) {
        firstByName[module.name] = first
        problems.append(
          ManifestProblem(
            .duplicateName, at: Self.location(module),
            "duplicate module name '\(module.name)'; first declared at "
              + "\(Self.location(modules[first]))"))
      } else {
        isFirst[index] = true
      }
    }
    var suggestionsLeft = 100
    // The dependency graph of enabled modules, by index, for the cycle check; a repeated name
    // has no edges (it is reported as a duplicate).
    var edges: [(from: Int, to: Int)] = []
    edges.reserveCapacity(2 * modules.count)
    // Services and targets are checked in the same pass, their problems reported after cycles.
    var declarations = Declarations(capacity: modules.count)
    var later = ManifestValidator()
    // The names enabled modules depend on (not counting themselves), gathered only when a lazy
    // module declares no trigger: a dependent starts it, so it needs none.
    var dependedOn: Set<String>?
    func isDependedOn(_ name: String) -> Bool {
      if dependedOn == nil {
        dependedOn = Set(
          modules.indices.lazy.filter { isEnabled[$0] }.flatMap { index in
            modules[index].dependencies.lazy.filter { $0 != modules[index].name }
          })
      }
      return dependedOn?.contains(name) ?? false
    }
    for (moduleIndex, module) in modules.enumerated() where isEnabled[moduleIndex] {
      let name = module.name
      for (position, dependency) in module.dependencies.enumerated() {
        func location() -> SourceLocation {
          Self.location(module, ".dependencies[\(Self.index(position, module.dependencyIndices))]")
        }
        if dependency == name {
          problems.append(
            ManifestProblem(
              .selfDependency, at: location(), "module '\(name)' depends on itself"))
        } else if let first = module.dependencies[..<position].firstIndex(of: dependency) {
          problems.append(
            ManifestProblem(
              .duplicateName, at: location(),
              "module '\(name)' lists dependency '\(dependency)' again; first at "
                + "dependencies[\(Self.index(first, module.dependencyIndices))]"))
        } else if let index = firstByName[dependency] {
          if isEnabled[index] {
            if isFirst[moduleIndex] { edges.append((moduleIndex, index)) }
          } else {
            problems.append(
              ManifestProblem(
                .disabledDependency, at: location(),
                "module '\(name)' depends on '\(dependency)', which is disabled; "
                  + "enable '\(dependency)' or remove the dependency"))
          }
        } else {
          var hint = ""
          if suggestionsLeft > 0 {
            suggestionsLeft -= 1
            hint = Suggestion.hint(
              for: dependency, in: firstByName.keys.filter { $0 != name }.sorted())
          }
          problems.append(
            ManifestProblem(
              .unknownDependency, at: location(),
              "module '\(name)' depends on unknown module '\(dependency)'\(hint)"))
        }
      }
      if let checkTypes { problems += checkTypes(module) }
      checkActivation(module, isDependedOn: isDependedOn)
      // Most modules declare neither.
      if !module.services.isEmpty || !module.targets.isEmpty {
        later.checkServicesAndTargets(of: module, at: moduleIndex, in: modules, &declarations)
      }
    }
    let dependencies = Adjacency(count: modules.count, edges: edges)
    checkCycles(modules, dependencies)
    problems += later.problems
    if problems.isEmpty { index = ModuleIndex(positions: firstByName, dependencies: dependencies) }
  }

  /// A lazy module must say what wakes it: a declared service or target, an activation event
  /// (a `background` module also wakes once the application is ready), or an enabled module
  /// that depends on it (which starts it at boot, or wakes it first). Activation events on an
  /// eager module would never be waited for.
  private mutating func checkActivation(
    _ module: ModuleManifest, isDependedOn: (String) -> Bool
  ) {
    switch module.activation {
    case .eager:
      guard !module.activationEvents.isEmpty else { return }
      problems.append(
        ManifestProblem(
          .invalidValue, at: Self.location(module, ".activationEvents"),
          "module '\(module.name)' has activationEvents but starts at boot; add "
            + "\"activation\": \"lazy\", or remove activationEvents"))
    case .lazy:
      guard module.services.isEmpty, module.targets.isEmpty, module.activationEvents.isEmpty,
        !isDependedOn(module.name)
      else { return }
      problems.append(
        ManifestProblem(
          .noActivationTrigger, at: Self.location(module, ".activation"),
          "lazy module '\(module.name)' declares no services, targets or activationEvents and no "
            + "module depends on it, so nothing would ever start it; declare the services and "
            + "targets it provides in its manifest, add activationEvents, or use "
            + "\"activation\": \"background\""))
    case .background:
      return
    }
  }

  /// The index in the file of the entry at `position` of a list the decoder left entries out
  /// of (`kept`, the index of each entry kept); `position` when it left none out.
  package static func index(_ position: Int, _ kept: [Int]?) -> Int {
    guard let kept, kept.indices.contains(position) else { return position }
    return kept[position]
  }

  package static func suffixed(_ location: SourceLocation, _ suffix: String) -> SourceLocation {
    var location = location
    location.keyPath += suffix
    return location
  }

  /// The first declaration of each service (one binding per protocol and name in an
  /// application) and target name, as (module, entry) indices; locations are built only for
  /// problems.
  private struct Declarations {
    var services: [NamePair: (Int, Int)] = [:]
    var targets: [String: (Int, Int)] = [:]

    init(capacity: Int) { services.reserveCapacity(capacity) }
  }

  /// Duplicate services and targets of the enabled `module` (at `moduleIndex`) against those
  /// declared before it, and its targets' actions.
  private mutating func checkServicesAndTargets(
    of module: ModuleManifest, at moduleIndex: Int, in modules: [ModuleManifest],
    _ declarations: inout Declarations
  ) {
    func serviceLocation(_ module: Int, _ index: Int) -> SourceLocation {
      Self.location(
        modules[module].services[index].source, in: modules[module], ".services[\(index)]")
    }
    func targetLocation(_ module: Int, _ index: Int) -> SourceLocation {
      Self.location(
        modules[module].targets[index].source, in: modules[module], ".targets[\(index)]")
    }
    // By index, so a service is copied only when it is a duplicate.
    let declared = module.services
    for index in declared.indices {
      let key = NamePair(declared[index].protocolName, declared[index].name)
      // One lookup for a new key; a repeated one puts the first declaration back.
      guard
        let (firstModule, firstIndex) = declarations.services.updateValue(
          (moduleIndex, index), forKey: key)
      else { continue }
      declarations.services[key] = (firstModule, firstIndex)
      let service = declared[index]
      guard service.rank == nil || modules[firstModule].services[firstIndex].rank == nil else {
        continue
      }
      let first = serviceLocation(firstModule, firstIndex)
      let named = service.name.map { " named '\($0)'" } ?? ""
      problems.append(
        ManifestProblem(
          .duplicateName, at: serviceLocation(moduleIndex, index),
          "duplicate service '\(service.protocolName)'\(named); first declared at \(first); "
            + "give one of them a different 'name', or give each a 'rank'"))
    }
    for (index, target) in module.targets.enumerated() {
      if let (firstModule, firstIndex) = declarations.targets[target.name] {
        problems.append(
          ManifestProblem(
            .duplicateName, at: targetLocation(moduleIndex, index),
            "duplicate target name '\(target.name)'; first declared at "
              + "\(targetLocation(firstModule, firstIndex))"))
      } else {
        declarations.targets[target.name] = (moduleIndex, index)
      }
      checkActions(target) { targetLocation(moduleIndex, index) }
    }
  }

  private mutating func checkActions(
    _ target: TargetManifest, at targetLocation: () -> SourceLocation
  ) {
    let repeatedActions = Self.repeats(target.actions.map(\.name))
    for (index, action) in target.actions.enumerated() {
      func location() -> SourceLocation {
        action.source ?? Self.suffixed(targetLocation(), ".actions[\(index)]")
      }
      if repeatedActions.contains(index) {
        problems.append(
          ManifestProblem(
            .duplicateName, at: location(),
            "duplicate action name '\(action.name)' in target '\(target.name)'"))
      }
      let repeatedParameters = Self.repeats(action.parameters.map(\.name))
      for (position, parameter) in action.parameters.enumerated() {
        func parameterLocation() -> SourceLocation {
          Self.suffixed(location(), ".parameters[\(Self.index(position, action.parameterIndices))]")
        }
        if repeatedParameters.contains(position) {
          problems.append(
            ManifestProblem(
              .duplicateName, at: parameterLocation(),
              "duplicate parameter name '\(parameter.name)' in action '\(action.name)'"))
        }
        guard let value = parameter.defaultValue else { continue }
        if parameter.isRequired {
          problems.append(
            ManifestProblem(
              .invalidValue, at: Self.suffixed(parameterLocation(), ".default"),
              "parameter '\(parameter.name)' is required and has a default; remove the "
                + "default or set \"required\": false"))
        }
        if !Self.matches(value, parameter.kind) {
          problems.append(
            ManifestProblem(
              .typeMismatch, at: Self.suffixed(parameterLocation(), ".default"),
              "default of parameter '\(parameter.name)' expected \(parameter.kind.rawValue), "
                + "found \(value.kindName)"))
        }
      }
    }
  }

  /// Positions of names that appeared earlier in `names`: a scan for short lists (no
  /// allocation), a set for long ones (linear).
  static func repeats(_ names: [String]) -> [Int] {
    var result: [Int] = []
    if names.count <= 16 {
      for index in names.indices where names[..<index].contains(names[index]) {
        result.append(index)
      }
    } else {
      var seen: Set<String> = []
      for (index, name) in names.enumerated() where !seen.insert(name).inserted {
        result.append(index)
      }
    }
    return result
  }

  /// Whether `value` is a valid value of a parameter of kind `kind`.
  static func matches(_ value: JSONValue, _ kind: ParameterManifest.Kind) -> Bool {
    switch (kind, value) {
    case (.any, _), (.string, .string), (.bool, .bool), (.array, .array), (.object, .object),
      (.int, .int), (.double, .int), (.double, .double):
      return true
    default: return false
    }
  }

  // MARK: Cycles

  /// Reports one cycle per strongly connected component of the enabled dependency graph
  /// `edges` (Tarjan's algorithm, iterative, so deep graphs cannot overflow the stack).
  private mutating func checkCycles(_ modules: [ModuleManifest], _ edges: Adjacency) {
    for cycle in Self.cycles(edges) {
      let names = (cycle + [cycle[0]]).map { modules[$0].name }
      let start = modules[cycle[0]]
      let position = start.dependencies.firstIndex(of: names[1]) ?? 0
      let index = Self.index(position, start.dependencyIndices)
      problems.append(
        ManifestProblem(
          .dependencyCycle, at: Self.location(start, ".dependencies[\(index)]"),
          "dependency cycle: \(names.joined(separator: " → ")); remove one of these "
            + "dependencies"))
    }
  }

  /// One elementary cycle (node indices, without repeating the first) per strongly connected
  /// component with more than one node, starting at its lowest index, in order of that index.
  package static func cycles(_ edges: [[Int]]) -> [[Int]] {
    cycles(Adjacency(edges))
  }

  /// Like ``cycles(_:)``, for a graph already in one array.
  static func cycles(_ edges: Adjacency) -> [[Int]] {
    let count = edges.count
    var order = [Int](repeating: -1, count: count)
    var low = [Int](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var stack: [Int] = []
    // Each node being visited, with the position of its next edge (``Adjacency/edges(of:)``).
    var calls: [(node: Int, edge: Int)] = []
    var next = 0
    var components: [[Int]] = []
    for root in 0..<count where order[root] < 0 {
      order[root] = next
      low[root] = next
      next += 1
      stack.append(root)
      onStack[root] = true
      calls.append((root, edges.edges(of: root).lowerBound))
      while let (node, edge) = calls.last {
        if edge < edges.edges(of: node).upperBound {
          calls[calls.count - 1].edge += 1
          let target = edges.target(at: edge)
          if order[target] < 0 {
            order[target] = next
            low[target] = next
            next += 1
            stack.append(target)
            onStack[target] = true
            calls.append((target, edges.edges(of: target).lowerBound))
          } else if onStack[target] {
            low[node] = min(low[node], order[target])
          }
          continue
        }
        calls.removeLast()
        if let parent = calls.last?.node { low[parent] = min(low[parent], low[node]) }
        guard low[node] == order[node] else { continue }
        // A node alone in its component, as nearly every node is, makes no list.
        if stack.last == node {
          stack.removeLast()
          onStack[node] = false
          continue
        }
        var component: [Int] = []
        while let member = stack.popLast() {
          onStack[member] = false
          component.append(member)
          if member == node { break }
        }
        if component.count > 1 { components.append(component) }
      }
    }
    // Within each component, a breadth-first search from its lowest node finds a shortest way
    // back to it.
    var componentOf = [Int](repeating: -1, count: count)
    var parent = [Int](repeating: -1, count: count)
    var result: [[Int]] = []
    for (id, component) in components.enumerated() {
      for member in component { componentOf[member] = id }
      guard let start = component.min() else { continue }
      var queue = [start]
      var head = 0
      var last = -1
      search: while head < queue.count {
        let node = queue[head]
        head += 1
        for target in edges[node] where componentOf[target] == id {
          if target == start {
            last = node
            break search
          }
          if parent[target] < 0 {
            parent[target] = node
            queue.append(target)
          }
        }
      }
      var cycle: [Int] = []
      var node = last
      while node >= 0, node != start {
        cycle.append(node)
        node = parent[node]
      }
      cycle.append(start)
      result.append(cycle.reversed())
    }
    return result.sorted { $0[0] < $1[0] }
  }
}
