import ApiarySupport

/// A service binding declared in a module manifest: a protocol name bound to an implementation
/// type name, as BeeHive's service plist does.
///
/// Keys: `protocol` (string, required), `implementation` (string, required), `name` (string,
/// optional), `scope` (`transient`, `singleton`, `weak` or `graph`; default `singleton`),
/// `rank` (integer, optional). A protocol and name pair may be bound once per application,
/// unless every binding of it declares a `rank`: then each is a provider, `resolve` picks the
/// highest rank (then the earliest registered) and `resolveAll` returns them all.
///
/// ```json
/// { "protocol": "NotebookKit.NoteStore", "implementation": "StorePlugin.FileNoteStore",
///   "scope": "singleton", "name": "primary" }
/// ```
package struct ServiceManifest: Sendable, Hashable {
  /// The protocol (or class) the service is resolved by, written `ModuleName.TypeName`.
  public var protocolName: String
  /// The implementing type, written `ModuleName.TypeName`; it must conform to ``Injectable``.
  public var implementation: String
  /// An optional name, for several bindings of one protocol.
  public var name: String?
  public var scope: Scope
  /// Its rank among several providers of the protocol, or nil for the only binding.
  public var rank: Int?
  /// The file and key path this entry was declared at.
  public var source: SourceLocation?

  public init(
    protocolName: String,
    implementation: String,
    name: String? = nil,
    scope: Scope = .singleton,
    rank: Int? = nil,
    source: SourceLocation? = nil
  ) {
    self.protocolName = protocolName
    self.implementation = implementation
    self.name = name
    self.scope = scope
    self.rank = rank
    self.source = source
  }
}
