/// A validated module list's names and dependencies by position, as the validator found them:
/// handed to the boot plan, so a boot hashes each module's name and looks up its dependencies
/// once, not once to validate and again to plan.
///
/// ```swift
/// let (problems, index) = ManifestLoader.validateIndexing(
///   application: nil, modules: modules, checkTypes: nil)
/// index?.dependencies[2]  // the positions of modules[2]'s dependencies
/// ```
package struct ModuleIndex: Sendable {
  /// Each module's position in the list, by name.
  package let positions: [String: Int]
  /// Each module's dependencies, as positions in the list, in manifest order.
  package let dependencies: Adjacency

  /// Whether this is the index of `modules`: one position per module, as for a list that
  /// validated (the names are unique), and one node per module.
  package func indexes(_ modules: [ModuleManifest]) -> Bool {
    positions.count == modules.count && dependencies.count == modules.count
  }
}
