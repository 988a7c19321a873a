import ApiaryContainer
import ApiaryManifest
import ApiarySupport

/// Manifest services: the kernel, which knows both manifests and the container, binds them.
extension Container {
  /// Binds a manifest `services` entry, owned by this view's owner, after
  /// ``check(_:catalog:)``. The kernel binds every module's manifest services before its
  /// `setUp`, so a broken entry fails boot (or marks an optional module failed) before any code
  /// resolves it.
  ///
  /// ```swift
  /// try context.container.bind(
  ///   ServiceManifest(
  ///     protocolName: "NotebookKit.NoteStore", implementation: "StorePlugin.FileNoteStore"),
  ///   catalog: catalog)
  /// ```
  package func bind(_ service: ServiceManifest, catalog: TypeCatalog) throws(ContainerError) {
    let (protocolType, implementation) = try check(service, catalog: catalog)
    try bindManifest(protocolType, implementation, service)
  }

  /// Checks a manifest `services` entry without creating anything: the protocol and the
  /// implementation are found by name in `catalog`, the implementation is an ``Injectable``
  /// class, and it conforms to the protocol (or inherits from the class).
  @discardableResult
  package func check(_ service: ServiceManifest, catalog: TypeCatalog) throws(ContainerError)
    -> (Any.Type, any Injectable.Type)
  {
    guard let protocolType = catalog.lookup(service.protocolName) else {
      throw .unknownType(service.protocolName, role: "service protocol", source: service.source)
    }
    guard let found = catalog.lookup(service.implementation) else {
      throw .unknownType(
        service.implementation, role: "service implementation", source: service.source)
    }
    guard let implementation = found as? any Injectable.Type else {
      throw .notInjectable(service.implementation, source: service.source)
    }
    guard Conformance.check(implementation, protocolType) else {
      throw .doesNotConform(
        ServiceKey(protocolType, name: service.name), implementation: implementation,
        source: service.source)
    }
    return (protocolType, implementation)
  }

  /// Binds a placeholder for a lazy module's manifest `services` entry: its first resolve pulls
  /// `wake` (which returns once the module runs, its own binding of the key in place of the
  /// placeholder) and then resolves the key again. A placeholder is transient, so a resolve
  /// holds no construction lock while it waits.
  func bindPlaceholder(_ service: ServiceManifest, catalog: TypeCatalog, wake: Wake)
    throws(ContainerError)
  {
    let (protocolType, _) = try check(service, catalog: catalog)
    try bindPlaceholder([service], at: 0, checkedAs: protocolType, wake: wake)
  }

  /// ``bindPlaceholder(_:catalog:wake:)`` for the entry at `index` of `services`, whose check
  /// passed already: `protocolType` is its protocol, found by
  /// ``CatalogMemo/link(protocolName:implementation:)``. By index, so the entry is not copied.
  func bindPlaceholder(
    _ services: [ServiceManifest], at index: Int, checkedAs protocolType: Any.Type, wake: Wake
  ) throws(ContainerError) {
    try bindPlaceholder(protocolType, services, index, wake)
  }

  private func bindPlaceholder<T>(
    _: T.Type, _ services: [ServiceManifest], _ index: Int, _ wake: Wake
  ) throws(ContainerError) {
    let name = services[index].name
    let trigger = ActivationTrigger.service(services[index].protocolName)
    // One closure, holding the wake and the trigger: nothing else is made per placeholder.
    _ = try add(
      ServiceKey(T.self, name: name), scope: .transient, eager: false,
      kind: .placeholder(implementation: services[index].implementation), override: false,
      rank: services[index].rank, source: services[index].source
    ) { (r: Resolver, _: Void) throws -> T in
      try wake.now(trigger)
      return try r.resolve(T.self, name: name)
    }
  }

  private func bindManifest<T>(
    _: T.Type, _ implementation: any Injectable.Type, _ service: ServiceManifest
  ) throws(ContainerError) {
    let key = ServiceKey(T.self, name: service.name)
    // Metatypes are immutable runtime records, safe to share between threads.
    nonisolated(unsafe) let implementation = implementation
    _ = try add(
      key, scope: service.scope, eager: false,
      kind: .manifest(implementation: service.implementation), override: false,
      rank: service.rank, source: service.source
    ) { (r: Resolver, _: Void) throws -> T in
      let instance = try implementation.init(resolver: r)
      guard let service = instance as? T else {
        throw ContainerError.doesNotConform(key, implementation: implementation, source: nil)
      }
      try r.inject(into: instance)
      return service
    }
  }
}
