/// A plugin library as a manifest names it, before the gate has looked at it.
///
/// ```swift
/// let candidate = PluginCandidate(
///   name: "notes", version: "1.0.0", library: "/app/Plugins/libNotes.so", sha256: nil,
///   origin: "Manifests/modules/notes.json: modules[0].library")
/// ```
public struct PluginCandidate: Sendable, Hashable {
  /// The plugin name the manifest claims, checked against the descriptor's `plugin`.
  public var name: String?
  /// The version the manifest claims, checked against the descriptor's `version`.
  public var version: String?
  /// The library file (absolute, or relative to the working directory).
  public var library: String
  /// The SHA-256 the manifest expects, in hexadecimal.
  public var sha256: String?
  /// Where the library was named: `Manifests/modules/notes.json: modules[0].library`.
  public var origin: String

  /// Describes one candidate.
  ///
  /// ```swift
  /// let bare = PluginCandidate(library: "/p/libNotes.so", origin: "notes.json: library")
  /// ```
  public init(
    name: String? = nil, version: String? = nil, library: String, sha256: String? = nil,
    origin: String
  ) {
    self.name = name
    self.version = version
    self.library = library
    self.sha256 = sha256
    self.origin = origin
  }
}
