/// What loading a manifests directory produced: the application, every declared module, the
/// files read, and every problem found. The set is usable only when `problems` is empty.
///
/// ```swift
/// let set = ManifestLoader(catalog: catalog).load(directory: "Manifests")
/// guard set.problems.isEmpty, let application = set.application else {
///   set.problems.forEach { print($0) }
///   return
/// }
/// ```
package struct ManifestSet: Sendable, Hashable {
  /// The application manifest; nil when it is missing or lacks a usable name or scheme.
  package var application: ApplicationManifest?
  /// Every declared module, enabled or not, in file then array order.
  package var modules: [ModuleManifest]
  /// Every problem found, in file order; empty when the manifests are valid.
  package var problems: [ManifestProblem]
  /// The files read, in order.
  package var files: [String]

  package init(
    application: ApplicationManifest? = nil, modules: [ModuleManifest] = [],
    problems: [ManifestProblem] = [], files: [String] = []
  ) {
    self.application = application
    self.modules = modules
    self.problems = problems
    self.files = files
  }

  /// The enabled modules, the ones an application loads.
  package var enabledModules: [ModuleManifest] { modules.filter(\.isEnabled) }
}
