// STUB — replaced by the manifest loader branch.
public struct ManifestSet: Sendable {
  public var application: ApplicationManifest?
  public var modules: [ModuleManifest]
  public var problems: [ManifestProblem]
  public var files: [String]
}

public struct ManifestLoader: Sendable {
  let catalog: TypeCatalog
  public init(catalog: TypeCatalog) { self.catalog = catalog }
  public func load(directory: String) -> ManifestSet {
    ManifestSet(application: nil, modules: [], problems: [], files: [])
  }
}
