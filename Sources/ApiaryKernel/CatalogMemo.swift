import ApiaryContainer
import ApiaryManifest
import ApiarySupport

/// The catalog's answers for one step of a boot in which no module code runs, so no type is
/// registered meanwhile: thousands of manifests name the same few module, service and target
/// types, and each is looked up, cast and checked once instead of once a module.
///
/// ```swift
/// var memo = CatalogMemo(catalog)
/// memo.moduleType("NotesPlugin.NotesModule")?.hasHooks  // true
/// ```
struct CatalogMemo {
  let catalog: TypeCatalog
  private var types: [String: Any.Type?] = [:]
  private var modules: [String: (any Module.Type)?] = [:]
  private var services: [ServicePair: ServiceLink] = [:]

  init(_ catalog: TypeCatalog) { self.catalog = catalog }

  /// How a manifest service's implementation links to its protocol (``BootCheck``).
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

  private struct ServicePair: Hashable {
    let protocolName: String
    let implementation: String
  }

  /// ``TypeCatalog/lookup(_:)``.
  mutating func lookup(_ name: String) -> Any.Type? {
    if let known = types[name] { return known }
    let type = catalog.lookup(name)
    types[name] = type
    return type
  }

  /// The ``Module`` type named `name`, or nil when it is not found or not a module.
  mutating func moduleType(_ name: String) -> (any Module.Type)? {
    if let known = modules[name] { return known }
    let type = lookup(name) as? any Module.Type
    modules[name] = type
    return type
  }

  /// How `service` links, as ``Container/check(_:catalog:)`` and ``BootCheck`` see it.
  mutating func link(_ service: ServiceManifest) -> ServiceLink {
    link(protocolName: service.protocolName, implementation: service.implementation)
  }

  /// How a service of `protocolName` implemented by `implementation` links.
  mutating func link(protocolName: String, implementation name: String) -> ServiceLink {
    let pair = ServicePair(protocolName: protocolName, implementation: name)
    if let known = services[pair] { return known }
    let link: ServiceLink
    if let type = lookup(name) {
      if let implementation = type as? any Injectable.Type {
        if let protocolType = lookup(protocolName) {
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
