/// The load gate: checks plugin libraries before any of their code runs, and reports every
/// problem of every candidate in one pass.
///
/// For each candidate, in load order, it reads the library's ELF headers and descriptor (never
/// `dlopen`), finds the contract libraries its `DT_NEEDED` entries resolve to (through
/// `DT_RUNPATH` or `DT_RPATH` with `$ORIGIN` expanded; the first copy of a name that is loaded is
/// the one every later library binds to), and checks:
/// - the file: present, ELF64 little-endian, a shared object, for this machine;
/// - the descriptor: present, well formed, same `abi`, `compiler` and `triple` as the host, and
///   the host's Apiary version inside its `requires apiary` range;
/// - the manifest's plugin name, version and `sha256` against the library;
/// - the entry symbol `apiary_plugin_entry`, for a plugin that exports modules or targets;
/// - no embedded copy: no definitions of the ABI's modules or of a contract library's module;
/// - the same checks for each contract library;
/// - across libraries: one library per plugin name, one exporter per module and target type,
///   every `requires` met by the copy that will be used, no cycle among `requires`.
/// A candidate whose contract library or required plugin is refused is refused too.
///
/// ```swift
/// let host = HostFacts(
///   apiaryVersion: SemanticVersion(1, 4, 0), abiHash: "3f2a9c", compiler: "Clang 17.0.0",
///   triple: "x86_64-unknown-linux-gnu", abiModules: ["Apiary"])
/// let candidate = PluginCandidate(
///   name: "notes", version: "1.0.0", library: "/app/Plugins/libNotes.so",
///   origin: "Manifests/modules/notes.json: modules[0].library")
/// let (plugins, problems) = LoadGate.check([candidate], host: host)
/// for problem in problems { print(problem) }
/// ```
public enum LoadGate {
  /// The symbol a plugin with modules or targets must export.
  public static let entrySymbol = "apiary_plugin_entry"

  /// Checks `candidates` (in load order) against `host`, in a process that has opened the
  /// `opened` plugins (accepted by an earlier check; their files are not read again). Returns the
  /// candidates that passed, in order, and every problem found.
  public static func check(
    _ candidates: [PluginCandidate], host: HostFacts, opened: [GatedPlugin] = []
  ) -> (plugins: [GatedPlugin], problems: [PluginProblem]) {
    var run = GateRun(host: host, known: opened)
    return run.check(candidates)
  }
}
