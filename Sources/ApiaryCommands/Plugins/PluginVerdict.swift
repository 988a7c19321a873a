/// One plugin library a manifest names, for the load gate.
struct PluginRequest: Sendable {
  /// The library's path as the host opens it.
  var path: String
  var version: String
  var sha256: String?
  /// Where the manifest named it: `Manifests/modules/notes.json:6:18 modules[0].library`.
  var origin: String
}

/// A plugin the gate accepted, with what its descriptor declares.
struct AcceptedPlugin: Sendable {
  var name: String
  var modules: [String]
  var targets: [String]
}

/// The load gate's answer for a set of requests.
struct PluginVerdict: Sendable {
  /// Accepted plugins by library path.
  var accepted = AcceptedPlugins()
  /// Every problem, with the library path it refuses.
  var problems: [(library: String, text: String)] = []
  /// Facts worth saying that refuse nothing (a plugin built in another configuration).
  var notes: [String] = []

  /// The problems that refuse `library`.
  func reasons(for library: String) -> [String] {
    problems.filter { $0.library == library }.map(\.text)
  }
}

/// Accepted plugins by library path: `accepted[path]`, `accepted[path] = nil`. Two arrays
/// searched, not a dictionary: a verdict holds a few plugins, and a dictionary type new to the
/// process costs a metadata instantiation on the first load (BENCHMARKS.md, "Plugins").
struct AcceptedPlugins: Sendable {
  private var paths: [String] = []
  private var plugins: [AcceptedPlugin] = []

  subscript(path: String) -> AcceptedPlugin? {
    get { paths.firstIndex(of: path).map { plugins[$0] } }
    set {
      if let index = paths.firstIndex(of: path) {
        if let newValue {
          plugins[index] = newValue
        } else {
          paths.remove(at: index)
          plugins.remove(at: index)
        }
      } else if let newValue {
        paths.append(path)
        plugins.append(newValue)
      }
    }
  }
}
