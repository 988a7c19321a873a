import ApiaryContainer
import ApiaryManifest
import ApiarySupport

/// Manifest services: the kernel, which knows both manifests and the container, binds them.
extension Container {
  /// Binds a manifest `services` entry, owned by this view's owner: the protocol and the
  /// implementation are found by name in `catalog`, the implementation must be an
  /// ``Injectable`` class, and its conformance to the protocol is checked when first resolved.
  /// The kernel binds every module's manifest services before its `setUp`.
  ///
  /// ```swift
  /// try context.container.bind(
  ///   ServiceManifest(
  ///     protocolName: "NotebookKit.NoteStore", implementation: "StorePlugin.FileNoteStore"),
  ///   catalog: catalog)
  /// ```
  package func bind(_ service: ServiceManifest, catalog: TypeCatalog) throws(ContainerError) {
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
    try bindManifest(protocolType, implementation, service)
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
      source: service.source
    ) { (r: Resolver, _: Void) throws -> T in
      let instance = try implementation.init(resolver: r)
      guard let service = instance as? T else {
        throw ContainerError.doesNotConform(key, implementation: implementation)
      }
      try r.inject(into: instance)
      return service
    }
  }
}
