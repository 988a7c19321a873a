/// The checks across libraries: plugin names and exported types used once, `requires` met by
/// the copy that will be used, no cycles, and refusal spreading to whatever depends on a refused
/// library. Every walk is iterative and linear in libraries plus edges.
struct RequirementGraph {
  typealias Library = GateRun.Library

  let libraries: [Library]
  /// The libraries each library's `requires` lines resolve to, and those lines, in rows:
  /// library `i`'s edges are positions `edgeStart[i]..<edgeStart[i + 1]` of `edgeTargets` and
  /// `edgeLines` (arrays of `Int` only, not of arrays or tuples: a new array type costs a
  /// metadata instantiation in a fresh process, BENCHMARKS.md "Plugins"). Made by
  /// ``unmetRequirements()``.
  private var edgeStart: [Int] = []
  private var edgeTargets: [Int] = []
  private var edgeLines: [Int] = []
  /// Libraries that got a problem here (searched, not a `Set`: see `GateRun.loadedNames`).
  private(set) var faulted: [Int] = []

  /// The plugin names and the exported types the libraries claim, for ``provider(of:)`` and
  /// ``exporter(of:)``.
  private let pluginNames: Claims
  private let typeNames: Claims

  init(_ libraries: [Library]) {
    self.libraries = libraries
    var plugins = Claims()
    var types = Claims()
    for (index, library) in libraries.enumerated() {
      guard let descriptor = library.descriptor else { continue }
      plugins.add(descriptor.plugin, by: index)
      for type in descriptor.modules { types.add(type, by: index) }
      for type in descriptor.targets { types.add(type, by: index) }
    }
    plugins.sort()
    types.sort()
    (pluginNames, typeNames) = (plugins, types)
  }

  /// Names and the libraries claiming them, sorted by name, then load order, and searched by
  /// halving: a boot of hundreds of plugins looks up each plugin's names, which a search of
  /// every library made quadratic. Two arrays, not a dictionary: see `GateRun.loadedNames`.
  private struct Claims {
    private var names: [String] = []
    private var owners: [Int] = []

    mutating func add(_ name: String, by owner: Int) {
      names.append(name)
      owners.append(owner)
    }

    mutating func sort() {
      let order = names.indices.sorted { a, b in
        names[a] == names[b] ? owners[a] < owners[b] : names[a] < names[b]
      }
      (names, owners) = (order.map { names[$0] }, order.map { owners[$0] })
    }

    /// The first library in load order that claims `name`.
    func first(_ name: String) -> Int? {
      var (low, high) = (0, names.count)
      while low < high {
        let middle = (low + high) / 2
        if names[middle] < name { low = middle + 1 } else { high = middle }
      }
      return low < names.count && names[low] == name ? owners[low] : nil
    }
  }

  /// Plugin names used by two libraries, and types exported by two libraries.
  mutating func duplicates() -> [PluginProblem] {
    var problems: [PluginProblem] = []
    for (index, library) in libraries.enumerated() {
      guard let descriptor = library.descriptor else { continue }
      if let first = provider(of: descriptor.plugin), first != index {
        problems.append(
          refuse(
            index,
            PluginProblem(
              .duplicate, file: library.path, field: "plugin", line: descriptor.line(of: "plugin"),
              message: "plugin name '\(descriptor.plugin)' is also used by \(place(first))",
              hint: "each plugin is loaded once; remove one of the two, or rename one plugin")))
      }
      for field in ["module", "target"] {
        for type in field == "module" ? descriptor.modules : descriptor.targets {
          if let first = exporter(of: type), first != index {
            problems.append(
              refuse(
                index,
                PluginProblem(
                  .duplicate, file: library.path, field: field,
                  message: "type '\(type)' is also exported by \(place(first))",
                  hint: "a type may come from one library only; remove one of the two")))
          }
        }
      }
    }
    return problems
  }

  /// `requires` lines with no provider, or whose provider's version is outside the range. The
  /// provider of a contract library a library needs is the copy the loader binds it to.
  mutating func unmetRequirements() -> [PluginProblem] {
    var problems: [PluginProblem] = []
    edgeStart = []
    for (index, library) in libraries.enumerated() {
      edgeStart.append(edgeTargets.count)
      guard let descriptor = library.descriptor else { continue }
      for requirement in descriptor.requires where requirement.name != "apiary" {
        let name = requirement.name
        let bound = library.contracts.first { libraries[$0].descriptor?.plugin == name }
        guard let provider = bound ?? provider(of: name),
          let version = libraries[provider].descriptor?.version
        else {
          problems.append(
            refuse(
              index,
              PluginProblem(
                .unmetRequirement, file: library.path, field: "requires", line: requirement.line,
                message: "no plugin or contract library named '\(name)' is loaded",
                expected: "\(name) \(requirement.range)", found: "nothing",
                hint: "for a plugin, add a manifest that loads '\(name)'; for a contract"
                  + " library, ship it where this one's RUNPATH finds it")))
          continue
        }
        edgeTargets.append(provider)
        edgeLines.append(requirement.line)
        if !requirement.range.contains(version) {
          problems.append(
            refuse(
              index,
              PluginProblem(
                .unmetRequirement, file: library.path, field: "requires", line: requirement.line,
                expected: "\(name) \(requirement.range)",
                found: "\(name) \(version) in \(place(provider))",
                hint: libraries[provider].isContract
                  ? Self.contractHint(name, version, requirement.range)
                  : "install a version of '\(name)' in that range, or widen this plugin's"
                    + " 'requires \(name)' line to the one installed and rebuild it")))
        }
      }
    }
    edgeStart.append(edgeTargets.count)
    return problems
  }

  /// What to do when the copy of contract library `name` a process loads, `found`, is outside
  /// a plugin's `range`: the process loads one copy, so its plugins must be built against
  /// versions that agree. Which to rebuild first depends on whether `found` is newer.
  static func contractHint(_ name: String, _ found: SemanticVersion, _ range: VersionRange)
    -> String
  {
    let newer = range.comparators.contains { bound in
      guard !bound.admits(found) else { return false }
      switch bound.op {
      case .less, .atMost: return true
      case .equal: return found > bound.version
      case .atLeast, .greater: return false
      }
    }
    let thisOne =
      "this plugin against \(name) \(found) with its line changed to 'requires \(name) ^\(found)'"
    let thoseOnes = "the plugins that bring that copy against a version in the range"
    return "a process loads one copy of a contract library, and the one loaded first is "
      + (newer ? "newer" : "older") + " than this plugin's range: rebuild "
      + (newer ? thisOne + ", or " + thoseOnes : thoseOnes + ", or " + thisOne)
  }

  /// Positions of library `index`'s edges in `edgeTargets` and `edgeLines`.
  private func edges(of index: Int) -> Range<Int> {
    edgeStart.count > index + 1 ? edgeStart[index]..<edgeStart[index + 1] : 0..<0
  }

  /// One problem per cycle among `requires`, printed as a path `a → b → a`. Run after
  /// ``unmetRequirements()``, which builds the edges.
  mutating func cycles() -> [PluginProblem] {
    var problems: [PluginProblem] = []
    guard !edgeTargets.isEmpty else { return problems }
    var state = [UInt8](repeating: 0, count: libraries.count)  // 0 new, 1 on the path, 2 done
    for start in libraries.indices where state[start] == 0 {
      // The path: its nodes, and for each the index of the next edge to follow.
      var path = [start]
      var next = [0]
      state[start] = 1
      while let node = path.last, let edge = next.last {
        let row = edges(of: node)
        guard edge < row.count else {
          state[node] = 2
          path.removeLast()
          next.removeLast()
          continue
        }
        next[next.count - 1] += 1
        let target = edgeTargets[row.lowerBound + edge]
        if state[target] == 0 {
          state[target] = 1
          path.append(target)
          next.append(0)
        } else if state[target] == 1, let first = path.firstIndex(of: target) {
          let members = Array(path[first...])
          let names = (members + [target]).map { libraries[$0].descriptor?.plugin ?? "?" }
          let line = edgeLines[edges(of: target).lowerBound + next[first] - 1]
          for member in members where !faulted.contains(member) {
            faulted.append(member)  // all refused; the one problem below says why
          }
          problems.append(
            refuse(
              target,
              PluginProblem(
                .requirementCycle, file: libraries[target].path, field: "requires", line: line,
                message: "plugins require each other in a cycle: "
                  + names.joined(separator: " → "),
                hint: "plugins in a cycle cannot be ordered; remove one of these requires lines")))
        }
      }
    }
    return problems
  }

  /// Refuses, transitively, every library that needs a refused contract library or requires a
  /// refused plugin, with one problem each naming the refused one.
  func propagate(refused: inout [Int]) -> [PluginProblem] {
    guard !refused.isEmpty else { return [] }
    var dependents = [[Int]](repeating: [], count: libraries.count)
    // Once each: a plugin that needs a contract library and also requires it has one problem.
    for index in libraries.indices {
      let causes = edges(of: index).map { edgeTargets[$0] } + libraries[index].contracts
      for cause in causes where dependents[cause].last != index {
        dependents[cause].append(index)
      }
    }
    var problems: [PluginProblem] = []
    var queue = refused.sorted()
    var head = 0
    while head < queue.count {
      let cause = queue[head]
      head += 1
      for dependent in dependents[cause] {
        let library = libraries[dependent]
        let needs = library.contracts.contains(cause)
        // A library refused for its own reasons is still told of a contract it needs that was
        // refused: otherwise nothing names that library's problems where the plugin is refused.
        if refused.contains(dependent) {
          guard needs, library.isCandidate, !libraries[cause].problems.isEmpty else { continue }
        } else {
          refused.append(dependent)
          queue.append(dependent)
        }
        let name =
          libraries[cause].descriptor?.plugin ?? libraries[cause].subject
          ?? String(libraries[cause].path.split(separator: "/").last ?? "?")
        problems.append(
          library.annotate(
            PluginProblem(
              .unmetRequirement, file: library.path, field: needs ? "DT_NEEDED" : "requires",
              message: needs
                ? "needs contract library '\(name)' ('\(libraries[cause].path)'), which the gate refused"
                : "requires '\(name)', which the gate refused",
              hint: "see the problems of '\(name)' above")))
      }
    }
    return problems
  }

  /// `plugin 'notes' (library '/p/libNotes.so', named in origin)`.
  private func place(_ index: Int) -> String {
    let library = libraries[index]
    let name = library.descriptor?.plugin ?? library.subject ?? "?"
    return "'\(name)' (library '\(library.path)', named in \(library.origin))"
  }

  /// The library that provides plugin name `name`: the first one in load order.
  private func provider(of name: String) -> Int? {
    pluginNames.first(name)
  }

  /// The first library in load order that exports module or target type `type`.
  private func exporter(of type: String) -> Int? {
    typeNames.first(type)
  }

  private mutating func refuse(_ index: Int, _ problem: PluginProblem) -> PluginProblem {
    if !faulted.contains(index) { faulted.append(index) }
    return libraries[index].annotate(problem)
  }
}
