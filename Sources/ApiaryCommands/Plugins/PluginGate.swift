import ApiaryPlugin
import ApiaryPluginGate

/// The host's only calls into the load gate (`ApiaryPluginGate`, PLUGIN-DESIGN.md §5). The gate
/// reads plugin files without running them; nothing here opens a library.
enum PluginGate {
  /// The Swift modules of libApiary.so that make up the plugin ABI: a plugin that defines
  /// symbols of one of them embeds its own copy and is refused.
  static let abiModules = [
    "ApiarySupport", "ApiaryManifest", "ApiaryContainer", "ApiaryLifecycle", "ApiaryMediator",
    "ApiaryKernel", "Apiary", "ApiaryTooling", "ApiaryCommands",
  ]

  /// What this host was built with, from the same header macros plugins compile.
  static var host: HostFacts {
    let version = String(cString: apiary_host_version())
    // The version is the header's literal, checked by ABIHashTests; no input reaches it.
    return HostFacts(
      apiaryVersion: SemanticVersion(version) ?? SemanticVersion("0.0.0")!,
      abiHash: String(cString: apiary_host_abi_hash()),
      compiler: String(cString: apiary_host_compiler()),
      triple: String(cString: apiary_host_triple()), abiModules: abiModules)
  }

  /// The host's facts as descriptor lines (`apiary plugin host`).
  static var hostDescription: String {
    let facts = host
    return """
      apiary \(facts.apiaryVersion)
      abi \(facts.abiHash)
      compiler \(facts.compiler)
      triple \(facts.triple)
      """
  }

  /// Checks every requested library in one pass; a library is accepted only when no problem
  /// names it.
  static func check(_ requests: [PluginRequest]) -> PluginVerdict {
    let candidates = requests.map { request in
      PluginCandidate(
        name: nil, version: request.version, library: request.path, sha256: request.sha256,
        origin: request.origin)
    }
    let (plugins, problems) = LoadGate.check(candidates, host: host)
    var verdict = PluginVerdict()
    for plugin in plugins {
      verdict.accepted[plugin.candidate.library] = AcceptedPlugin(
        name: plugin.descriptor.plugin, version: plugin.descriptor.version,
        modules: plugin.descriptor.modules, targets: plugin.descriptor.targets)
    }
    for problem in problems {
      let library = requests.first { $0.origin == problem.origin }?.path ?? problem.file
      verdict.problems.append((library, problem.description))
    }
    return verdict
  }

  /// `apiary plugin inspect FILE`: the descriptor and ELF facts, without loading the file.
  static func inspect(_ file: String) -> Result<String, PluginProblem> {
    do throws(PluginProblem) {
      let image = try ELFImage(contentsOf: file)
      guard let bytes = image.section(named: "apiary_plugin") else {
        throw PluginProblem(
          file: file, field: "apiary_plugin", expected: "a descriptor section", found: "none",
          message: "not an Apiary plugin (no descriptor)")
      }
      let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      _ = try PluginDescriptor(text: text, file: file)
      let entry = image.definedSymbols.contains("apiary_plugin_entry")
      return .success(
        text.trimmingWhitespace() + "\n"
          + "# file \(file)\n"
          + "# shared object \(image.isSharedObject ? "yes" : "no")\n"
          + "# needs \(image.neededLibraries.joined(separator: ", "))\n"
          + "# entry apiary_plugin_entry \(entry ? "defined" : "missing")")
    } catch {
      return .failure(error)
    }
  }
}
