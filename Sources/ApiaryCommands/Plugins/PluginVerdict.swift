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
  var version: String
  var modules: [String]
  var targets: [String]
}

/// The load gate's answer for a set of requests.
struct PluginVerdict: Sendable {
  /// Accepted plugins by library path.
  var accepted: [String: AcceptedPlugin] = [:]
  /// Every problem, with the library path it refuses.
  var problems: [(library: String, text: String)] = []
  /// Facts worth saying that refuse nothing (a plugin built in another configuration).
  var notes: [String] = []

  /// The problems that refuse `library`.
  func reasons(for library: String) -> [String] {
    problems.filter { $0.library == library }.map(\.text)
  }
}
