/// One run of ``LoadGate/check(_:host:)``: reads every library once, then checks each, then
/// checks across them.
struct GateRun {
  /// A library file the gate read: a candidate's, or a contract library found through
  /// `DT_NEEDED`. A class, so the checks update it in place instead of copying it.
  final class Library {
    let path: String
    /// Constants set once: a `var` optional starts as `nil`, and setting it destroys that `nil`
    /// through the optional's metadata, new to a fresh process (BENCHMARKS.md, "Plugins").
    let subject: String?
    /// Where it was named, for messages: a manifest entry, or a `DT_NEEDED` entry and how the
    /// loader finds it. Made the first time a message needs it, so a library without problems
    /// costs no string building.
    lazy var origin: String = describeOrigin()
    private let describeOrigin: () -> String
    /// What the gate read from the file; nil for a file that could not be read, and for a
    /// library an earlier run accepted, which is not checked again.
    let facts: LibraryFacts?
    /// The file read: the facts', or a known library's
    /// (``init(known:origin:descriptor:identity:isCandidate:)``).
    let identity: FileIdentity?
    let descriptor: PluginDescriptor?
    var problems: [PluginProblem]
    /// Contract libraries it needs, directly or not, in the order the loader opens them.
    var contracts: [Int] = []
    /// Whether a manifest names it (then it is checked as a plugin), else found as a contract.
    var isCandidate: Bool

    /// A library as read (`facts`), or unreadable (`problems`); the subject is the descriptor's
    /// plugin name when `subject` is nil. Not inlined: a candidate's and a contract library's
    /// reading share its code, which a fresh process pages in once (BENCHMARKS.md, "Plugins").
    @inline(never)
    init(
      path: String, subject: String?, origin: @autoclosure @escaping () -> String,
      facts: LibraryFacts?, problems: [PluginProblem], isCandidate: Bool
    ) {
      self.facts = facts
      self.identity = facts?.identity
      self.descriptor = facts?.descriptor
      self.path = path
      self.subject = subject ?? self.descriptor?.plugin
      self.describeOrigin = origin
      self.problems = problems
      self.isCandidate = isCandidate
      if let found = facts?.descriptorProblems, !found.isEmpty {
        self.problems += found.map(annotate)
      }
    }

    /// A library the process opened after an earlier run accepted it: its facts as that run
    /// found them, so it is not read or checked again.
    init(
      known path: String, origin: @escaping () -> String, descriptor: PluginDescriptor,
      identity: FileIdentity, isCandidate: Bool
    ) {
      self.path = path
      self.subject = descriptor.plugin
      self.describeOrigin = origin
      self.facts = nil
      self.identity = identity
      self.descriptor = descriptor
      self.problems = []
      self.isCandidate = isCandidate
    }

    var isContract: Bool { !isCandidate || (descriptor?.isContractLibrary ?? false) }

    /// `problem`, with this library's subject and origin where it has none.
    func annotate(_ problem: PluginProblem) -> PluginProblem {
      var problem = problem
      if problem.subject == nil { problem.subject = subject }
      if problem.origin == nil { problem.origin = origin }
      return problem
    }
  }

  let host: HostFacts
  var libraries: [Library] = []
  /// Names the loader knows as loaded (`DT_NEEDED` names found, sonames), and at the same
  /// position the library each stands for (``noContract`` for a library without a descriptor,
  /// which the run does not hold), besides the host's ``HostFacts/loadedLibraries`` (see
  /// ``loaded(_:)``). Two arrays searched, not a dictionary: a run knows a handful of names, and a dictionary type
  /// new to the process costs a metadata instantiation on the first load (BENCHMARKS.md).
  var loadedNames: [String] = []
  var loadedAs: [Int] = []
  static let noContract = -1
  var problems: [PluginProblem] = []

  /// A run for `host`, in a process that has opened the `known` plugins (in load order) and
  /// their contract libraries: new libraries are checked against them, and bind to them as the
  /// loader binds.
  init(host: HostFacts, known: [GatedPlugin] = []) {
    self.host = host
    for plugin in known {
      let library = plugin.candidate.library
      let contracts = plugin.contracts.map { contract in
        know(
          contract.path, { "DT_NEEDED of '" + library + "'" }, contract.descriptor,
          contract.identity, contract.names, isCandidate: false)
      }
      let index = know(
        library, { plugin.candidate.origin }, plugin.descriptor, plugin.identity, plugin.names,
        isCandidate: true)
      libraries[index].contracts = contracts
    }
  }

  /// Adds a library opened before, once per file, and the names the loader knows it by.
  private mutating func know(
    _ path: String, _ origin: @escaping () -> String, _ descriptor: PluginDescriptor,
    _ identity: FileIdentity, _ names: [String], isCandidate: Bool
  ) -> Int {
    let index =
      library(identity)
      ?? add(
        Library(
          known: path, origin: origin, descriptor: descriptor, identity: identity,
          isCandidate: isCandidate))
    for name in names { record(name, as: index) }
    return index
  }

  /// The names recorded as library `index`'s (see ``loadedNames``).
  private func names(of index: Int) -> [String] {
    loadedNames.indices.filter { loadedAs[$0] == index }.map { loadedNames[$0] }
  }

  /// Whether the loader has `name` loaded (`.some`), and as which contract library (`nil` for
  /// the host's libraries and libraries without a descriptor).
  private func loaded(_ name: String) -> Int?? {
    if let position = position(of: name) {
      let index = loadedAs[position]
      return index == Self.noContract || !libraries[index].isContract ? .some(nil) : index
    }
    return host.hasLoaded(name) ? .some(nil) : nil
  }

  /// Where `name` is in ``loadedNames``, compared byte for byte as the loader compares names:
  /// `==` on strings takes canonically equivalent spellings (`é` as one code point, and `e`
  /// with a combining accent) for one name, which the loader holds for two files.
  private func position(of name: String) -> Int? {
    let count = name.utf8.count
    return loadedNames.firstIndex { $0.utf8.count == count && $0.utf8.elementsEqual(name.utf8) }
  }

  /// Records that the loader knows `name` as library `index` (or ``noContract``: a library
  /// without a descriptor).
  private mutating func record(_ name: String, as index: Int) {
    if let position = position(of: name) {
      loadedAs[position] = index
    } else {
      loadedNames.append(name)
      loadedAs.append(index)
    }
  }

  mutating func check(_ candidates: [PluginCandidate]) -> (
    plugins: [GatedPlugin], problems: [PluginProblem]
  ) {
    // 1. Read every candidate and the contract libraries it needs, in load order.
    let candidateLibrary = candidates.map { candidate in
      let index = open(candidate)
      if let soname = libraries[index].facts?.soname, loaded(soname) == nil {
        record(soname, as: index)
      }
      if libraries[index].facts != nil, libraries[index].contracts.isEmpty {
        libraries[index].contracts = resolveContracts(of: index)
      }
      return index
    }
    // 2. Check each library once, and each candidate's claims about it.
    let watched = watchedModules()
    // Index lists searched, not `Set`s or dictionaries: see `loadedNames`.
    var refusedCandidates: [Int] = []
    var hashes = [String](repeating: "", count: libraries.count)  // "" until computed
    for index in libraries.indices {
      checkLibrary(index, watched: watched)
      problems += libraries[index].problems
      for (position, candidate) in candidates.enumerated() where candidateLibrary[position] == index
      {
        let found = checkClaims(candidate, against: index, hashes: &hashes)
        if !found.isEmpty { refusedCandidates.append(position) }
        problems += found
      }
    }
    // 3. Check across libraries, then refuse what depends on a refused library.
    var refused = libraries.indices.filter { !libraries[$0].problems.isEmpty }
    for position in refusedCandidates where !refused.contains(candidateLibrary[position]) {
      refused.append(candidateLibrary[position])
    }
    var graph = RequirementGraph(libraries)
    problems += graph.duplicates()
    problems += graph.unmetRequirements()
    problems += graph.cycles()
    for index in graph.faulted where !refused.contains(index) { refused.append(index) }
    problems += graph.propagate(refused: &refused)
    var plugins: [GatedPlugin] = []
    for (position, candidate) in candidates.enumerated() {
      let library = libraries[candidateLibrary[position]]
      guard !refused.contains(candidateLibrary[position]), !refusedCandidates.contains(position),
        let descriptor = library.descriptor
      else { continue }
      let contracts = library.contracts.compactMap { index -> GatedPlugin.Contract? in
        guard let descriptor = libraries[index].descriptor, let identity = libraries[index].identity
        else { return nil }
        return .init(
          name: descriptor.plugin, path: libraries[index].path, descriptor: descriptor,
          identity: identity, names: names(of: index))
      }
      guard let identity = library.identity else { continue }
      plugins.append(
        GatedPlugin(
          candidate: candidate, descriptor: descriptor, contracts: contracts, identity: identity,
          names: names(of: candidateLibrary[position])))
    }
    // A contract library's problems name the candidates that need it.
    for index in problems.indices {
      guard let library = libraries.firstIndex(where: { $0.path == problems[index].file }),
        !libraries[library].isCandidate
      else { continue }
      problems[index].neededBy = libraries.filter {
        $0.contracts.contains(library) && $0.isCandidate
      }
      .map(\.path)
    }
    return (plugins, problems)
  }

  // MARK: Reading

  /// The library a candidate names, read once per file.
  private mutating func open(_ candidate: PluginCandidate) -> Int {
    do throws(PluginProblem) {
      let file = try ByteFile(path: candidate.library)
      if let known = library(file.identity) {
        libraries[known].isCandidate = true
        return known
      }
      let facts = try Self.read(ELFLayout(file))
      return add(
        Library(
          path: candidate.library, subject: candidate.name, origin: candidate.origin, facts: facts,
          problems: [], isCandidate: true))
    } catch {
      var problem = error
      problem.subject = candidate.name
      problem.origin = candidate.origin
      return add(
        Library(
          path: candidate.library, subject: candidate.name, origin: candidate.origin, facts: nil,
          problems: [problem], isCandidate: true))
    }
  }

  /// The facts of the file `layout` reads, whose ELF image is read and checked as the loader
  /// would. The image is dropped at once (the facts copy what they keep), so the file's buffer
  /// is free for the next file: when each run kept its images to its end, a run over a hundred
  /// plugins filled a hundred fresh buffers, page by page (BENCHMARKS.md, "Plugins").
  private static func read(_ layout: ELFLayout) throws(PluginProblem) -> LibraryFacts {
    LibraryFacts(image: try ELFImage(layout: layout))
  }

  /// The library already read from the file `identity`. A search, not a dictionary: a run reads
  /// a handful of files, and the first hash of a new key type costs a scan of every protocol
  /// conformance in the process (BENCHMARKS.md, "Plugins").
  private func library(_ identity: FileIdentity) -> Int? {
    libraries.firstIndex { $0.identity?.isSameFile(as: identity) ?? false }
  }

  private mutating func add(_ library: Library) -> Int {
    libraries.append(library)
    return libraries.count - 1
  }

  /// The contract libraries the loader opens with library `root`, breadth first like `ld.so`.
  private mutating func resolveContracts(of root: Int) -> [Int] {
    var order: [Int] = []
    // Two arrays, not one of tuples: each new array type costs a metadata instantiation in a
    // fresh process (BENCHMARKS.md, "Plugins"). The paths are kept for `queue[1...]` only (the
    // root inherits none), so a plugin that needs no contract library allocates no array of them.
    var queue = [root]
    var inheritedPaths: [SearchPath.Directories] = []
    var head = 0
    while head < queue.count {
      let (index, inherited) = (queue[head], head == 0 ? .init() : inheritedPaths[head - 1])
      head += 1
      guard let facts = libraries[index].facts else { continue }
      var search: SearchPath?  // made only when a name is not loaded yet
      for name in facts.needed {
        let found: Int?
        if let known = loaded(name) {
          found = known
          if let bound = known, libraries[index].descriptor != nil {
            let path = search ?? SearchPath(for: facts, inherited: inherited)
            search = path
            compareOwnCopy(of: name, boundTo: bound, neededBy: index, search: path)
          }
        } else {
          let path = search ?? SearchPath(for: facts, inherited: inherited)
          search = path
          found = locate(name, neededBy: index, search: path)
        }
        if let found, found != root, !order.contains(found) {
          order.append(found)
          queue.append(found)
          inheritedPaths.append((search ?? SearchPath(for: facts, inherited: inherited)).inherited)
        }
      }
    }
    return order
  }

  /// Library `index` needs contract library `name`, which the process has bound to `bound`
  /// (another library brought it), so the loader never opens the copy `index` was built with.
  /// When that copy has a version whose compatible range (`^VERSION`) excludes `bound`'s, `index`
  /// is refused: it was compiled against that version. Skipped when its own `requires` line
  /// for `name` already excludes `bound` (the requirement check says so).
  private mutating func compareOwnCopy(
    of name: String, boundTo bound: Int, neededBy index: Int, search: SearchPath
  ) {
    guard let loaded = libraries[bound].descriptor, let boundFile = libraries[bound].identity
    else { return }
    let stated = libraries[index].descriptor?.requires.first { $0.name == loaded.plugin }
    if let stated, !stated.range.contains(loaded.version) { return }
    for path in search.candidates(for: name) {
      guard let file = ByteFile.ifReadable(path) else { continue }
      // The copy loaded: what plugins of one package share.
      if file.identity.isSameFile(as: boundFile) { return }
      guard let layout = try? ELFLayout(file), layout.machine == host.machine else { continue }
      guard layout.descriptor >= 0,
        let own = (try? Self.read(layout))?.descriptor, own.plugin == loaded.plugin,
        let built = try? VersionRange("^\(own.version)"), !built.contains(loaded.version)
      else { return }
      libraries[index].problems.append(
        libraries[index].annotate(
          PluginProblem(
            .unmetRequirement, file: libraries[index].path, field: "DT_NEEDED",
            expected:
              "\(loaded.plugin) \(built), as it was built against \(loaded.plugin) \(own.version) "
              + "('\(path)')"
              + (stated.map { " (its 'requires' line, \($0.range), is stale)" } ?? ""),
            found: "\(loaded.plugin) \(loaded.version) ('\(libraries[bound].path)', loaded first)",
            hint: RequirementGraph.contractHint(loaded.plugin, loaded.version, built))))
      return
    }
  }

  /// Finds `name` where the loader would; records the name as loaded when found, and returns the
  /// contract library it is (`nil` for a library without a descriptor, or none found).
  private mutating func locate(_ name: String, neededBy parent: Int, search: SearchPath) -> Int? {
    for (position, path) in search.candidates(for: name).enumerated() {
      // The loader skips files it cannot open and ELF files of another class or machine.
      // Most needed libraries are not contract libraries: read only their headers.
      guard let file = ByteFile.ifReadable(path) else { continue }
      guard let layout = try? ELFLayout(file), layout.machine == host.machine else { continue }
      if let known = library(file.identity) {
        record(name, as: known)
        return libraries[known].isContract ? known : nil
      }
      guard layout.descriptor >= 0 else {
        record(name, as: Self.noContract)
        return nil
      }
      let parentPath = libraries[parent].path
      // Concatenated, not interpolated: interpolation was new code for the first contract
      // library's process (BENCHMARKS.md, "Plugins").
      func origin() -> String {
        "DT_NEEDED '" + name + "' of '" + parentPath + "', found through "
          + search.how(position, for: name)
      }
      let facts: LibraryFacts
      do throws(PluginProblem) {
        facts = try Self.read(layout)
      } catch {
        var problem = error
        problem.origin = origin()
        let index = add(
          Library(
            path: path, subject: nil, origin: origin(), facts: nil, problems: [problem],
            isCandidate: false))
        record(name, as: index)
        return index
      }
      let index = add(
        Library(
          path: path, subject: nil, origin: origin(), facts: facts, problems: [],
          isCandidate: false))
      record(name, as: index)
      if let soname = facts.soname, loaded(soname) == nil {
        record(soname, as: index)
      }
      return index
    }
    return nil
  }

  // MARK: Checking one library

  /// Module names no library may define unless it is that module: the ABI's and every contract
  /// library's.
  private func watchedModules() -> [String] {
    var names = host.abiModules
    for library in libraries where library.isContract {
      if let name = library.descriptor?.plugin, !names.contains(name) { names.append(name) }
    }
    return names
  }

  private mutating func checkLibrary(_ index: Int, watched: [String]) {
    guard let facts = libraries[index].facts else { return }
    var found: [PluginProblem] = []
    if !facts.isSharedObject {
      let kind: String
      switch facts.fileType {
      case 1: kind = "ET_REL (1): an object file; link it with -shared"
      case 2: kind = "ET_EXEC (2): an executable"
      case 4: kind = "ET_CORE (4): a core dump"
      default: kind = "\(facts.fileType)"
      }
      found.append(
        PluginProblem(
          .notSharedObject, file: facts.path, field: "e_type",
          expected: "ET_DYN (3): a shared library",
          found: kind,
          hint: "build the plugin as a .dynamic library product"))
    }
    if facts.machine != host.machine {
      found.append(
        PluginProblem(
          .wrongMachine, file: facts.path, field: "e_machine", expected: "\(host.machine)",
          found: "\(facts.machine)",
          hint: "the library was built for another processor; rebuild it on this host"))
    }
    if !facts.hasDescriptor {
      found.append(
        PluginProblem(
          .noDescriptor, file: facts.path, field: PluginDescriptor.sectionName,
          message: "the library has no 'apiary_plugin' section",
          hint: "it was not built as an Apiary plugin; a plugin package has a descriptor target"
            + " with APIARY_PLUGIN(...) (see 'apiary plugin new')"))
    }
    if let descriptor = libraries[index].descriptor {
      found += checkBuild(descriptor, file: facts.path)
      found += embeddedCopies(in: facts, of: watched)
      if libraries[index].isCandidate && !descriptor.isContractLibrary && !facts.definesEntry {
        found.append(
          PluginProblem(
            .missingEntry, file: facts.path, field: LoadGate.entrySymbol,
            expected: "a symbol defined in .dynsym",
            found:
              "none (dlsym would fail: \(facts.path): undefined symbol: \(LoadGate.entrySymbol))",
            hint: "the descriptor exports modules or targets, so the library must export"
              + " @_cdecl(\"\(LoadGate.entrySymbol)\"); 'apiary plugin new' scaffolds it"))
      }
    }
    libraries[index].problems += found.map(libraries[index].annotate)
  }

  /// The descriptor's compiled-against facts against the host's.
  private func checkBuild(_ descriptor: PluginDescriptor, file: String) -> [PluginProblem] {
    var found: [PluginProblem] = []
    func compare(_ field: String, _ expected: String, _ actual: String, _ hint: String) {
      guard expected != actual else { return }
      found.append(
        PluginProblem(
          .incompatibleBuild, file: file, field: field, line: descriptor.line(of: field),
          expected: expected, found: actual, hint: hint))
    }
    // Numbers and hashes compared before they are formatted: the texts are for a problem.
    if descriptor.format != PluginDescriptor.format {
      compare(
        "descriptor", "\(PluginDescriptor.format)", "\(descriptor.format)",
        "the descriptor format differs; build the plugin with this host's Apiary")
    }
    if descriptor.abi != host.abiHash {
      compare(
        "abi", host.abiHash.lowercased(), descriptor.abi.lowercased(),
        "the plugin was built against another Apiary; rebuild it with this host's Apiary: "
          + ByteFile.buildCommand(for: file))
    }
    if descriptor.compiler != host.compiler {
      compare(
        "compiler", host.compiler, descriptor.compiler,
        "the plugin was built by another Swift toolchain, and Swift has no ABI stability on Linux;"
          + " rebuild it with this host's toolchain: " + ByteFile.buildCommand(for: file))
    }
    compare(
      "triple", host.triple, descriptor.triple,
      "the plugin was built for another platform; rebuild it for this host")
    if let apiary = descriptor.requires.first(where: { $0.name == "apiary" }),
      !apiary.range.contains(host.apiaryVersion)
    {
      found.append(
        PluginProblem(
          .unmetRequirement, file: file, field: "requires apiary", line: apiary.line,
          expected: "a host whose Apiary is in \(apiary.range)",
          found: "Apiary \(host.apiaryVersion)",
          hint: "use a plugin version made for this Apiary, or a host in that range"))
    }
    return found
  }

  /// One problem per `watched` module the library defines type or protocol descriptors of
  /// (its ``LibraryFacts/foreignModules``), in `watched` order: it embeds its own copy. The
  /// ABI's modules are one copy of Apiary, so one problem for all of them.
  private func embeddedCopies(in facts: LibraryFacts, of watched: [String]) -> [PluginProblem] {
    let copies = watched.compactMap { name in facts.foreignModules.first { $0.name == name } }
    guard !copies.isEmpty else { return [] }
    let abi = copies.filter { host.abiModules.contains($0.name) }
    var groups = copies.filter { !host.abiModules.contains($0.name) }.map { [$0] }
    if !abi.isEmpty { groups.insert(abi, at: 0) }
    return groups.map { group in
      let names = group.map(\.name)
      let what = names.count == 1 ? names[0] : "Apiary"
      let module =
        names.count == 1 ? "module '\(what)'" : "Apiary (modules \(names.joined(separator: ", ")))"
      let count = group.reduce(0) { $0 + $1.count }
      let example = group.map(\.example).min() ?? ""
      let source =
        host.abiModules.contains(names[0])
        ? "Apiary's dynamic library product ('Apiary')"
        : "the contract library's dynamic product"
      return PluginProblem(
        .embeddedCopy, file: facts.path, field: ".dynsym",
        message: "the library embeds its own copy of \(module)",
        expected: "\(what)'s types only referenced, bound at load to the one shared copy",
        found: "\(count) type or protocol descriptor\(count == 1 ? "" : "s")"
          + " of \(what) defined here, e.g. \(example)",
        hint: "it linked \(what) statically, which splits type identity (casts fail, singletons"
          + " split); depend on \(source) by package path instead of its targets")
    }
  }

  /// The candidate's claims (name, version, sha256) against the library it names.
  private func checkClaims(
    _ candidate: PluginCandidate, against index: Int, hashes: inout [String]
  )
    -> [PluginProblem]
  {
    let library = libraries[index]
    var found: [PluginProblem] = []
    func problem(
      _ kind: PluginProblem.Kind, _ field: String, line: Int? = nil, expected: String,
      found actual: String, hint: String
    ) {
      found.append(
        PluginProblem(
          kind, subject: candidate.name ?? library.subject, file: candidate.library,
          origin: candidate.origin, field: field, line: line, expected: expected, found: actual,
          hint: hint))
    }
    if let descriptor = library.descriptor {
      if let name = candidate.name, name != descriptor.plugin {
        problem(
          .manifestMismatch, "plugin", line: descriptor.line(of: "plugin"), expected: name,
          found: descriptor.plugin,
          hint: "the manifest names another plugin than the library holds; fix the manifest's"
            + " name or its library path")
      }
      if let claimed = candidate.version, (try? SemanticVersion(claimed)) != descriptor.version {
        problem(
          .manifestMismatch, "version", line: descriptor.line(of: "version"), expected: claimed,
          found: "\(descriptor.version)",
          hint: "the manifest's version differs from the library's; update the manifest or"
            + " rebuild the plugin")
      }
    }
    if let expected = candidate.sha256?.lowercased(), library.facts != nil {
      let actual: String
      if !hashes[index].isEmpty {
        actual = hashes[index]
      } else {
        do throws(PluginProblem) {
          actual = try SHA256.hex(ofFile: library.path)
        } catch {
          var problem = error
          problem.subject = candidate.name ?? library.subject
          problem.origin = candidate.origin
          return found + [problem]
        }
        hashes[index] = actual
      }
      if actual != expected {
        problem(
          .checksumMismatch, "sha256", expected: expected, found: actual,
          hint: "the file changed since the manifest was written; reinstall the plugin, or"
            + " update the manifest's sha256 if this build is the one you trust")
      }
    }
    return found
  }
}
