import Apiary

/// The host's plugin loading for a program that embeds the host instead of running `apiary`:
/// the same load gate, `dlopen` and entry call as `apiary run`. The benchmarks use it
/// (`Benchmarks/`, "Plugins" in BENCHMARKS.md); it is the only public door into the host's
/// commands besides `apiary_main`.
///
/// ```swift
/// let catalog = TypeCatalog()
/// let types = try EmbeddedHost.loadPlugin(
///   library: "/plugins/libNotesPlugin.so", version: "1.0.0", into: catalog)
/// let kernel = try EmbeddedHost.kernel(manifestsAt: "Manifests")
/// try await kernel.boot()
/// ```
public enum EmbeddedHost {
  /// Why a plugin or an application could not be loaded: the host's messages, one a line.
  public struct Refusal: Error, CustomStringConvertible {
    /// The messages, as `apiary` prints them.
    public let description: String
  }

  /// Checks `library` with the load gate, opens it and registers the types its entry exports
  /// in `catalog`, as `apiary run` does for a plugin a manifest names. Returns the registered
  /// type names.
  @discardableResult
  public static func loadPlugin(
    library: String, version: String, sha256: String? = nil, into catalog: TypeCatalog
  ) throws(Refusal) -> [String] {
    let request = PluginRequest(
      path: library, version: version, sha256: sha256, origin: "EmbeddedHost.loadPlugin")
    let verdict = PluginGate.check([request])
    guard let accepted = verdict.accepted[library] else {
      throw Refusal(description: verdict.reasons(for: library).joined(separator: "\n"))
    }
    do {
      try PluginLibrary.open(library, declared: accepted, into: catalog)
    } catch {
      throw Refusal(description: error.description)
    }
    return accepted.modules + accepted.targets
  }

  /// The application in `directory`, planned, with every plugin library its manifests name
  /// gated and opened, as `apiary run` makes it (refused optional plugins become failing
  /// modules; a refused required one throws).
  public static func kernel(manifestsAt directory: String) throws(Refusal) -> Kernel {
    var loader = ApplicationLoader(plugins: .load)
    do {
      let loaded = try loader.load(directory: directory)
      return try Kernel(
        application: loaded.application, modules: loaded.modules, catalog: loader.catalog)
    } catch {
      throw Refusal(description: "\(error)")
    }
  }
}
