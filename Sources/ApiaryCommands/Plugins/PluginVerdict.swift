import ApiaryPluginGate

/// One plugin library a manifest names, for the load gate.
struct PluginRequest: Sendable {
  /// The library's path as the host opens it.
  var path: String
  var version: String
  var sha256: String?
  /// Where the manifest named it: `Manifests/modules/notes.json:6:18 modules[0].library`.
  var origin: String
}

/// The load gate's answer for a set of requests.
struct PluginVerdict: Sendable {
  /// The accepted plugins' descriptors by library path.
  var accepted = AcceptedPlugins()
  /// Every problem, with the library path it refuses, and the gate's own problem when the gate
  /// found it (nil for a library refused after the gate, e.g. when opening it failed).
  var problems: [(library: String, text: String, gate: PluginProblem?)] = []
  /// Facts worth saying that refuse nothing (a plugin built in another configuration).
  var notes: [String] = []

  /// Adds `other`'s accepted plugins, problems and notes (a verdict on other libraries).
  mutating func add(_ other: PluginVerdict) {
    accepted.add(other.accepted)
    problems += other.problems
    notes += other.notes
  }

  /// The problems that refuse `library`.
  func reasons(for library: String) -> [String] {
    problems.filter { $0.library == library }.map(\.text)
  }
}

/// The accepted plugins by library path: `accepted[path]`,
/// `accepted.remove(path)`. The gate's own array, searched: a verdict holds a few plugins, and a
/// dictionary, or an array of another element type, is a type new to the process, which costs a
/// metadata instantiation on the first load (BENCHMARKS.md, "Plugins").
struct AcceptedPlugins: Sendable {
  private var plugins: [GatedPlugin]

  init(_ plugins: [GatedPlugin] = []) { self.plugins = plugins }

  subscript(path: String) -> GatedPlugin? {
    plugins.first { $0.candidate.library == path }
  }

  mutating func add(_ other: AcceptedPlugins) {
    plugins += other.plugins
  }

  /// No longer accepts the library at `path`.
  mutating func remove(_ path: String) {
    plugins.removeAll { $0.candidate.library == path }
  }
}
