import ApiaryPlugin
import ApiaryPluginGate
import ApiaryProcess
import ApiarySupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The host's only calls into the load gate (`ApiaryPluginGate`, PLUGIN-DESIGN.md §5). The gate
/// reads plugin files without running them; nothing here opens a library.
enum PluginGate {
  /// The Swift modules of libApiary.so that make up the plugin ABI: a plugin that defines
  /// symbols of one of them embeds its own copy and is refused.
  static let abiModules = [
    "ApiarySupport", "ApiaryManifest", "ApiaryContainer", "ApiaryLifecycle", "ApiaryMediator",
    "ApiaryKernel", "Apiary", "ApiaryTooling", "ApiaryCommands",
  ]

  /// What this host was built with, from the same header macros plugins compile. Computed once
  /// per process: the facts do not change, and a gate run per plugin (`:load`) would otherwise
  /// parse them again.
  static let host: HostFacts = {
    let version = String(cString: apiary_host_version())
    // The version is the header's literal (ABIHashTests reads it back); no input reaches it.
    return HostFacts(
      apiaryVersion: (try? SemanticVersion(version)) ?? SemanticVersion(0, 0, 0),
      abiHash: String(cString: apiary_host_abi_hash()),
      compiler: String(cString: apiary_host_compiler()),
      triple: String(cString: apiary_host_triple()), abiModules: abiModules,
      loadedLibraries: loadedBeforePlugins)
  }()

  /// Base names of the libraries loaded before any plugin (libApiary.so, the Swift runtime,
  /// libc): a plugin's need for one binds to the loaded copy. Taken at the first gate run, which
  /// comes before any plugin is opened, so no contract library is among them. (`:load` after
  /// boot checks contract libraries already loaded again, from the files the loader would use.)
  static let loadedBeforePlugins: [String] = {
    // The loader's own list, through dl_iterate_phdr (not in Swift's Glibc module, so found
    // with dlsym). Reading /proc/self/maps instead cost more than opening a plugin. Every libc
    // starts `struct dl_phdr_info` with `dlpi_addr` (an address), then `dlpi_name`.
    typealias Visit =
      @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) ->
      Int32
    typealias Iterate = @convention(c) (Visit, UnsafeMutableRawPointer?) -> Int32
    var names: [String] = []
    guard let symbol = dlsym(nil, "dl_iterate_phdr") else { return names }
    let iterate = unsafeBitCast(symbol, to: Iterate.self)
    _ = withUnsafeMutablePointer(to: &names) { names in
      iterate(
        { info, _, names in
          guard let info, let names,
            let path = info.load(
              fromByteOffset: MemoryLayout<UInt>.stride, as: UnsafePointer<CChar>?.self)
          else { return 0 }
          let base = strrchr(path, 0x2f).map { UnsafePointer($0 + 1) } ?? path
          if strstr(base, ".so") != nil {
            names.assumingMemoryBound(to: [String].self).pointee.append(String(cString: base))
          }
          return 0
        }, names)
    }
    return names
  }()

  /// The Apiary version and ABI hash a process-placed module's child must have been built with
  /// (the wire protocol's handshake); installed before the first child starts.
  static func installHandshake() {
    let facts = host
    ProcessHost.handshake = Handshake(apiary: "\(facts.apiaryVersion)", abi: facts.abiHash)
  }

  /// The host's facts as descriptor lines (`apiary plugin host`).
  static var hostDescription: String {
    let facts = host
    return """
      apiary \(facts.apiaryVersion)
      abi \(facts.abiHash)
      compiler \(facts.compiler)
      triple \(facts.triple)
      configuration \(configuration)
      """
  }

  /// The host's build configuration, `debug` or `release`.
  static var configuration: String { String(cString: apiary_host_configuration()) }

  /// Checks every requested library in one pass; a library is accepted only when no problem
  /// names it.
  ///
  /// The libraries this process opened before (``PluginLibrary/opened``; none at boot) stay
  /// loaded, so the gate checks the requests against them, from what it accepted of them then
  /// (their files are not read again): a new library is refused for embedding a contract library
  /// they load, or for reusing their plugin name or types. A request whose path was opened
  /// before and whose file changed on disk since is refused (``PluginLibrary/changes(_:opened:)``).
  /// With `alone`, the requests are checked as a process that opened nothing else would check
  /// them: a process-placed module's child.
  static func check(_ requests: [PluginRequest], alone: Bool = false) -> PluginVerdict {
    guard !requests.isEmpty else { return PluginVerdict() }
    let opened = alone ? [] : PluginLibrary.opened
    let candidates = requests.map { request in
      PluginCandidate(
        name: nil, version: request.version, library: request.path, sha256: request.sha256,
        origin: request.origin)
    }
    let (plugins, problems) = LoadGate.check(
      candidates, host: host, opened: opened)
    var verdict = verdict(requests, plugins, problems)
    guard !opened.isEmpty else { return verdict }
    let changes = PluginLibrary.changes(requests, opened: opened)
    for (path, _) in changes { verdict.accepted.remove(path) }
    verdict.problems =
      changes.map { (library: $0.0, text: $0.1, gate: nil) }
      + verdict.problems.filter { problem in
        requests.contains { $0.path == problem.library }
          && !changes.contains { $0.0 == problem.library }
      }
    return verdict
  }

  /// The verdict on `requests` from the gate's answer.
  private static func verdict(
    _ requests: [PluginRequest], _ plugins: [GatedPlugin], _ problems: [PluginProblem]
  ) -> PluginVerdict {
    var verdict = PluginVerdict(accepted: AcceptedPlugins(plugins))
    for plugin in plugins {
      if let built = plugin.descriptor.configuration, built != configuration {
        verdict.notes.append(
          "\(ReadablePath.of(plugin.candidate.library)): plugin '\(plugin.descriptor.plugin)' "
            + "was built in \(built)"
            + " configuration, this host in \(configuration); it loads, but mixed builds measure"
            + " and debug differently")
      }
    }
    for problem in problems {
      // The request the problem names; a request's path and origin, then the last one with its
      // origin (a file loaded again may name another library from the same place).
      let library =
        (requests.first { $0.origin == problem.origin && $0.path == problem.file }
        ?? requests.last { $0.origin == problem.origin })?.path ?? problem.file
      verdict.problems.append((library, text(of: problem), problem))
    }
    // A contract library's own problems go first with each plugin that needs it, since no
    // manifest names the contract library itself.
    let needed = problems.flatMap { problem in
      problem.neededBy.filter { path in requests.contains { $0.path == path } }
        .map { (library: $0, text: text(of: problem), gate: problem) }
    }
    verdict.problems = needed + verdict.problems
    return verdict
  }

  /// The text of `problem`, its library shown as ``ReadablePath`` has it; the problem itself
  /// keeps the path the gate read.
  private static func text(of problem: PluginProblem) -> String {
    var shown = problem
    shown.file = ReadablePath.of(problem.file)
    return shown.description
  }

  /// `apiary plugin inspect FILE`: the descriptor and ELF facts, without loading the file, and
  /// whether this host's load gate accepts it (its problems, if not, as `# problem:` lines).
  static func inspect(_ file: String) -> Result<(text: String, isSound: Bool), InspectionError> {
    let image: ELFImage
    do {
      image = try ELFImage(contentsOf: file)
    } catch {
      return .failure(InspectionError(description: "\(error)"))
    }
    guard let bytes = image.section(named: "apiary_plugin") else {
      return .failure(
        InspectionError(description: "\(file): no apiary_plugin section: not an Apiary plugin"))
    }
    // The whole gate, as `validate` runs it on a library a manifest names: the descriptor, and
    // whether this host would load it.
    let candidate = PluginCandidate(library: file, origin: "the command line")
    let problems = LoadGate.check([candidate], host: host).problems
    let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    let report =
      text.trimmingWhitespace() + "\n"
      + problems.map { "# problem: \($0)\n" }.joined()
      + "# file \(file)\n"
      + "# shared object \(image.isSharedObject ? "yes" : "no")\n"
      + "# machine \(image.machine)\n"
      + "# needs \(image.neededLibraries.joined(separator: ", "))\n"
      + "# entry \(LoadGate.entrySymbol) \(image.defines(LoadGate.entrySymbol) ? "defined" : "missing")"
    // The gate refuses what is not a shared object too, so its problems say it all.
    return .success((report, problems.isEmpty))
  }

  /// What the descriptor of the library at `file` declares as its version, for a message:
  /// `the library's descriptor declares 1.0.0`, or why it declares none.
  static func declaredVersion(of file: String) -> String {
    guard let image = try? ELFImage(contentsOf: file),
      let bytes = image.section(named: "apiary_plugin")
    else { return "the library has no readable descriptor" }
    guard let descriptor = PluginDescriptor.parse(bytes, file: file).descriptor else {
      return "the library's descriptor is malformed"
    }
    return "the library's descriptor declares \(descriptor.version)"
  }

  /// Why `apiary plugin inspect` cannot show a file.
  struct InspectionError: Error, CustomStringConvertible {
    let description: String
  }
}
