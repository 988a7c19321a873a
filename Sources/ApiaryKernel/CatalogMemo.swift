import ApiaryContainer
import ApiaryManifest
import ApiarySupport

/// How manifest services link, found once for a boot step in which no module code runs (so no
/// type is registered meanwhile): ``BootCheck`` checks every service before any module is set
/// up, and putting a lazy module to sleep binds a placeholder for the same service afterwards,
/// so the second asks the first's answer instead of looking both names up and checking the
/// conformance again. Module types are kept too: thousands of lazy modules share a few.
///
/// ```swift
/// var memo = CatalogMemo(catalog)
/// memo.link(protocolName: "Notes.NoteStore", implementation: "Notes.FileNoteStore")
/// // .linked(NoteStore's type), or why not
/// ```
struct CatalogMemo {
  let catalog: TypeCatalog
  /// By protocol name, then implementation name.
  private var services: [NamePair: ServiceLink] = [:]
  private var modules: [String: (any Module.Type)?] = [:]

  init(_ catalog: TypeCatalog) { self.catalog = catalog }

  /// How a manifest service's implementation links to its protocol.
  enum ServiceLink {
    /// The implementation is not found: the validator reports it.
    case unknown
    case notInjectable
    /// The protocol is not found; nothing to check it against.
    case unknownProtocol
    case doesNotConform
    /// Both are found, the implementation is ``Injectable`` and conforms: binding it cannot
    /// fail a check. Holds the protocol type.
    case linked(Any.Type)
  }

  /// The module type named `name`, or nil when the catalog has none or it is not a ``Module``:
  /// modules mostly share a few types, so each is looked up and checked once.
  mutating func module(_ name: String) -> (any Module.Type)? {
    if let known = modules[name] { return known }
    let type = catalog.moduleType(named: name)
    modules[name] = .some(type)
    return type
  }

  /// How a service of `protocolName` implemented by `implementation` links, as
  /// ``Container/check(_:catalog:)`` and ``BootCheck`` see it.
  mutating func link(protocolName: String, implementation name: String) -> ServiceLink {
    let pair = NamePair(protocolName, name)
    if let known = services[pair] { return known }
    let link: ServiceLink
    if let type = catalog.lookup(name) {
      if let implementation = type as? any Injectable.Type {
        if let protocolType = catalog.lookup(protocolName) {
          let conforms = Conformance.check(implementation, protocolType)
          link = conforms ? .linked(protocolType) : .doesNotConform
        } else {
          link = .unknownProtocol
        }
      } else {
        link = .notInjectable
      }
    } else {
      link = .unknown
    }
    services[pair] = link
    return link
  }
}
