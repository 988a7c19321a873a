import ApiaryContainer
import ApiaryManifest
import ApiaryMediator
import ApiarySupport

/// Links the names in module manifests to Swift types and checks what a boot would need, without
/// running module code: every service implementation is ``Injectable`` and conforms to its
/// protocol (or inherits from its class), every target type is a ``Target``, and every declared
/// action is in its target's ``ActionTarget/actions`` table (a static declaration, read but never
/// called). Names the catalog cannot find are the manifest
/// validator's to report, so they are skipped here.
///
/// `apiary validate` runs it after loading; ``Kernel/boot()`` runs it on every planned module
/// before any module's `setUp` (and ``Kernel/add(_:)`` on the added one), after plugins have
/// registered their types in the catalog.
///
/// ```swift
/// let problems = BootCheck.problems(set.enabledModules, catalog: catalog)
/// // modules/notes.json:12:9 modules[0].targets[0].actions[2]: target 'notes'
/// // (NotesPlugin.NotesTarget) does not implement action 'archive'; it implements create, get
/// ```
package enum BootCheck {
  /// Every problem linking `modules` (all of them, enabled or not) against `catalog`.
  public static func problems(_ modules: [ModuleManifest], catalog: TypeCatalog)
    -> [ManifestProblem]
  {
    var memo = CatalogMemo(catalog)
    return modules.flatMap { problems($0, memo: &memo) }
  }

  /// The problems of one module.
  public static func problems(_ module: ModuleManifest, catalog: TypeCatalog)
    -> [ManifestProblem]
  {
    var memo = CatalogMemo(catalog)
    return problems(module, memo: &memo)
  }

  /// The problems of one module, with the catalog's answers kept in `memo` for the next one.
  static func problems(_ module: ModuleManifest, memo: inout CatalogMemo) -> [ManifestProblem] {
    guard !module.services.isEmpty || !module.targets.isEmpty else { return [] }
    var problems: [ManifestProblem] = []
    func location(_ source: SourceLocation?, _ suffix: String) -> SourceLocation {
      if let source { return source }
      var location = module.source ?? SourceLocation(file: "module '\(module.name)'")
      location.keyPath += location.keyPath.isEmpty ? String(suffix.dropFirst()) : suffix
      return location
    }
    let services = module.services
    for index in services.indices {
      // Only the two names are read unless there is a problem to place.
      let link = memo.link(
        protocolName: services[index].protocolName,
        implementation: services[index].implementation)
      let message: (ServiceManifest) -> String
      switch link {
      case .unknown, .unknownProtocol, .linked:
        continue
      case .notInjectable:
        message = {
          "service implementation '\($0.implementation)' is not Injectable; expected a "
            + "final class conforming to Apiary.Injectable with init(resolver:)"
        }
      case .doesNotConform:
        message = {
          "service implementation \($0.implementation) does not conform to \($0.protocolName)"
        }
      }
      let service = services[index]
      var at = location(service.source, ".services[\(index)]")
      at.keyPath += ".implementation"
      problems.append(ManifestProblem(.notLinkable, at: at, message(service)))
    }
    for (index, target) in module.targets.enumerated() {
      let typeName =
        target.type.isEmpty
        ? Mediator.conventionalTypeName(target.name, moduleType: module.type) : target.type
      guard let found = memo.catalog.lookup(typeName, knownAs: KnownTarget.self) else { continue }
      let at = location(target.source, ".targets[\(index)]")
      guard let targetType = found.known?.type ?? found.type as? any Target.Type else {
        var typeLocation = at
        typeLocation.keyPath += ".type"
        problems.append(
          ManifestProblem(
            .notLinkable, at: typeLocation,
            "type '\(typeName)' of target '\(target.name)' is not a Target; expected a final "
              + "class conforming to Apiary.Target"))
        continue
      }
      let implemented = actionNames(targetType)
      for (position, action) in target.actions.enumerated()
      where !implemented.contains(action.name) {
        var actionLocation = at
        actionLocation.keyPath += ".actions[\(position)]"
        problems.append(
          ManifestProblem(
            .notLinkable, at: action.source ?? actionLocation,
            "target '\(target.name)' (\(typeName)) does not implement action '\(action.name)'; "
              + "it implements "
              + (implemented.isEmpty ? "none" : implemented.sorted().joined(separator: ", "))))
      }
    }
    return problems
  }

  private static func actionNames<T: ActionTarget>(_ type: T.Type) -> Set<String> {
    Set(T.actions.names)
  }
}
