import ApiarySupport

/// A service binding declared in a module manifest: a protocol name bound to an implementation
/// type name, as BeeHive's service plist does.
///
/// Keys: `protocol` (string, required), `implementation` (string, required), `name` (string,
/// optional), `scope` (`transient`, `singleton`, `weak` or `graph`; default `singleton`). A
/// protocol and name pair may be bound once per application.
///
/// ```json
/// { "protocol": "NotebookKit.NoteStore", "implementation": "StorePlugin.FileNoteStore",
///   "scope": "singleton", "name": "primary" }
/// ```
public struct ServiceManifest: Sendable, Hashable {
  /// The protocol (or class) the service is resolved by, written `ModuleName.TypeName`.
  public var protocolName: String
  /// The implementing type, written `ModuleName.TypeName`; it must conform to ``Injectable``.
  public var implementation: String
  /// An optional name, for several bindings of one protocol.
  public var name: String?
  public var scope: Scope
  /// The file and key path this entry was declared at.
  public var source: SourceLocation?

  public init(
    protocolName: String,
    implementation: String,
    name: String? = nil,
    scope: Scope = .singleton,
    source: SourceLocation? = nil
  ) {
    self.protocolName = protocolName
    self.implementation = implementation
    self.name = name
    self.scope = scope
    self.source = source
  }
}
