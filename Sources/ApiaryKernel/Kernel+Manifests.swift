import ApiaryLifecycle
import ApiaryManifest
import ApiarySupport

extension Kernel {
  /// Loads and validates the manifests in `directory` and plans the application.
  ///
  /// Every type a manifest names must be registered in `catalog` or linked into the process
  /// (the Swift runtime finds it by name): the kernel never opens plugin libraries, so a
  /// manifest's `library` is not loaded here. The `apiary` host opens them first.
  ///
  /// ```swift
  /// let kernel = try Kernel(manifestsAt: "Manifests")
  /// try await kernel.boot()
  /// ```
  ///
  /// - Throws: ``ErrorCode/invalidManifests`` with every problem found, each naming its
  ///   file and key path.
  public init(
    manifestsAt directory: String,
    catalog: TypeCatalog = TypeCatalog(),
    observer: (@Sendable (LifecycleRecord) -> Void)? = nil
  ) throws(KernelError) {
    let set = ManifestLoader(catalog: catalog).load(directory: directory)
    guard set.problems.isEmpty, let application = set.application else {
      throw .invalidManifests(set.problems)
    }
    try self.init(
      application: application, modules: set.modules, catalog: catalog, observer: observer)
  }
}
