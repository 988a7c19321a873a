import ApiarySupport

/// The plugin library a module's type lives in, as its manifest names it.
///
/// A module with `library` is loaded from that shared library, through the host's load gate,
/// before the application boots; a module without one is found among the types the host already
/// has. Keys of a module manifest entry:
///
/// | key | type | meaning |
/// |---|---|---|
/// | `library` | string | the plugin's shared library, relative to the manifest file |
/// | `version` | string, SemVer | the plugin's version; must equal its descriptor's (required with `library`) |
/// | `sha256` | string, 64 hex digits | optional; the library's SHA-256, checked before loading |
///
/// ```json
/// { "name": "notes", "type": "NotesPlugin.NotesModule",
///   "library": "../../SamplePlugins/.build/release/libNotesPlugin.so", "version": "1.0.0" }
/// ```
package struct PluginReference: Sendable, Hashable {
  /// The library path as written, relative to the manifest file (or absolute).
  public var library: String
  /// The plugin version the manifest expects.
  public var version: String
  /// The library's expected SHA-256, lowercase hex.
  public var sha256: String?
  /// Where `library` was written.
  public var source: SourceLocation?

  public init(
    library: String, version: String, sha256: String? = nil, source: SourceLocation? = nil
  ) {
    self.library = library
    self.version = version
    self.sha256 = sha256
    self.source = source
  }

  /// The library's path: `library` resolved against the directory of the manifest file.
  public var path: String {
    guard !library.hasPrefix("/"), let file = source?.file, let slash = file.lastIndex(of: "/")
    else { return library }
    return String(file[...slash]) + library
  }
}
