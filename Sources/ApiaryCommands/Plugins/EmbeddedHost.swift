import Apiary
import ApiaryPluginGate
import ApiaryProcess

// `stdout`, a C global, is used once, before any other thread runs.
#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  @preconcurrency import Musl
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// The host's plugin loading for a program that embeds the host instead of running `apiary`:
/// the same load gate, `dlopen` and entry call as `apiary run`. The benchmarks use it
/// (`Benchmarks/`, "Plugins" in BENCHMARKS.md); it is the only public door into the host's
/// commands besides `apiary_main`.
///
/// ```swift
/// let catalog = TypeCatalog()
/// let types = try EmbeddedHost.loadPlugins(
///   [.init(library: "/plugins/libNotesPlugin.so", version: "1.0.0")], into: catalog)
/// let kernel = try EmbeddedHost.kernel(manifestsAt: "Manifests")
/// try await kernel.boot()
/// ```
///
/// A program can also be the child of a process-placed module: name it in the module's
/// `command` and call ``serveChild(name:file:directory:)`` when it starts.
public enum EmbeddedHost {
  /// Why a plugin or an application could not be loaded: the host's messages, one a line.
  public struct Refusal: Error, CustomStringConvertible {
    /// The messages, as `apiary` prints them.
    public let description: String
  }

  /// A plugin library to load, as a module manifest names one.
  ///
  /// ```swift
  /// let notes = EmbeddedHost.Plugin(library: "/plugins/libNotesPlugin.so", version: "1.0.0")
  /// ```
  public struct Plugin: Sendable {
    /// The library file.
    public var library: String
    /// The version the library's descriptor must declare.
    public var version: String
    /// The SHA-256 the file must have, in hexadecimal; nil to leave it unchecked.
    public var sha256: String?

    /// Names a library, its version and, optionally, its checksum.
    public init(library: String, version: String, sha256: String? = nil) {
      self.library = library
      self.version = version
      self.sha256 = sha256
    }
  }

  /// Checks `plugins` with the load gate in one pass — each against the others and against the
  /// libraries this process opened before, as `apiary run` checks an application's plugins and
  /// `:load` a file's — then opens each, in order, and registers the types its entry exports in
  /// `catalog`. Nothing is opened unless every library passes (the refusal lists every reason,
  /// once). A library the set names twice, by one path or two, is checked against each claim
  /// (its version and checksum) and opened once. A library that fails to open after the gate
  /// ends the loading there; the ones opened before it stay loaded, as libraries are never
  /// unloaded. Returns the registered type names, each once.
  @discardableResult
  public static func loadPlugins(_ plugins: [Plugin], into catalog: TypeCatalog)
    throws(Refusal) -> [String]
  {
    let requests = plugins.map { plugin in
      PluginRequest(
        path: plugin.library, version: plugin.version, sha256: plugin.sha256,
        origin: "EmbeddedHost.loadPlugins")
    }
    let verdict = PluginGate.check(requests)
    let refused = requests.filter { verdict.accepted[$0.path] == nil }
    guard refused.isEmpty else {
      var reasons: [String] = []
      for request in refused {
        let found = verdict.reasons(for: request.path)
        reasons += (found.isEmpty ? ["\(request.path): refused by the load gate"] : found)
          .filter { !reasons.contains($0) }
      }
      throw Refusal(description: reasons.joined(separator: "\n"))
    }
    var types: [String] = []
    var opened: [FileIdentity] = []
    for request in requests {
      guard let accepted = verdict.accepted[request.path],
        !opened.contains(accepted.identity)
      else { continue }
      do {
        try PluginLibrary.open(request, accepted: accepted, into: catalog)
      } catch {
        throw Refusal(description: error.description)
      }
      opened.append(accepted.identity)
      types += accepted.descriptor.modules + accepted.descriptor.targets
    }
    return types
  }

  /// The application in `directory`, planned, with every plugin library its manifests name
  /// gated and opened, as `apiary run` makes it (refused optional plugins become failing
  /// modules; a refused required one throws).
  public static func kernel(manifestsAt directory: String) throws(Refusal) -> Kernel {
    var loader = ApplicationLoader(plugins: .load)
    do {
      let loaded = try loader.load(directory: directory)
      return try Kernel(
        application: loaded.application, modules: loaded.modules, index: loaded.index,
        catalog: loader.catalog)
    } catch {
      throw Refusal(description: "\(error)")
    }
  }

  /// Whether the manifest file `bytes` (named `file`) parse, with the parser and into the
  /// positioned tree that loading uses, without decoding them into modules: the least any boot
  /// from manifests pays per file. The benchmarks' boot floor (`--only lazy`) is built on it.
  ///
  /// ```swift
  /// var text = #"{"schemaVersion": 1, "modules": []}"#
  /// text.withUTF8 { EmbeddedHost.parseManifest(UnsafeRawBufferPointer($0), file: "m.json") }
  /// // true
  /// ```
  public static func parseManifest(_ bytes: UnsafeRawBufferPointer, file: String) -> Bool {
    ManifestLoader.parses(bytes, file: file)
  }

  /// Serves the module `name` declared in the module manifest `file` to the host that started
  /// this process, as `apiary child` does: ends with the host, gates and opens the module's
  /// plugin library (if it names one), and speaks the wire protocol (docs/wire-protocol.md) on
  /// standard input and output until the host closes standard input. Standard output becomes
  /// standard error, so a module that prints cannot corrupt the wire. Returns the exit status.
  public static func serveChild(name: String, file: String, directory: String) async -> Int32 {
    Lifeline.watchParent()  // end with the host however it ends; first, before other threads
    let wire = dup(1)
    _ = dup2(2, 1)
    // Standard output is a pipe now, which C's stdio buffers in blocks until exit: a module's
    // `print` would reach the host only when the child ends, or never if it crashes.
    setvbuf(stdout, nil, _IOLBF, 0)
    _ = signal(SIGPIPE, SIG_IGN)
    PluginGate.installHandshake()
    var loader = ApplicationLoader(plugins: .load)
    let server: ChildServer
    do {
      let (application, module) = try loader.loadChild(name: name, file: file, directory: directory)
      server = try ChildServer(application: application, module: module, catalog: loader.catalog)
    } catch {
      StandardError.print(lines: Host.errorLines(error))
      return ExitStatus.failure
    }
    return await server.serve(reading: 0, writing: wire)
  }
}
