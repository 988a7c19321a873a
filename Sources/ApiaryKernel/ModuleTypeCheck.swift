import ApiaryManifest
import ApiarySupport

/// Links the type names module manifests use to Swift types, as part of planning: the module
/// type must be a ``Module``, and service and target types must exist. The manifest layer knows
/// names only; ``ManifestLoader/init(catalog:)`` hands it this check.
struct ModuleTypeCheck {
  let catalog: TypeCatalog
  /// Catalog lookups by name, and for a module type whether it is a ``Module``: thousands of
  /// manifest entries may share a type, and conformance is checked once a name, only where it
  /// matters (a runtime check of a new type costs a scan of every conformance record).
  private var types: [String: Found?] = [:]
  /// The catalog's names, read at the first type not found, for its "did you mean".
  private var knownNames: [String]?

  private typealias Found = (type: Any.Type, isModule: Bool?)

  init(catalog: TypeCatalog) { self.catalog = catalog }

  /// This check as the validator takes it: a module at a time, its lookups kept between them.
  func typeCheck() -> TypeCheck {
    var check = self
    return { check.problems($0) }
  }

  /// Every problem with the type names `module` uses, in manifest order; none for a module
  /// whose plugin reference is broken (its library was not loaded, for a reported reason).
  mutating func problems(_ module: ModuleManifest) -> [ManifestProblem] {
    guard !module.namesBrokenPlugin else { return [] }
    var problems: [ManifestProblem] = []
    if let found = requireType(
      module.type, "module", in: module, at: ManifestValidator.location(module, ".type"),
      &problems),
      !isModule(module.type, found)
    {
      problems.append(
        ManifestProblem(
          .notAModule, at: ManifestValidator.location(module, ".type"),
          "type '\(module.type)' is not a Module; expected a final class conforming to "
            + "Apiary.Module with an init()"))
    }
    // By index, so each service's names are read without copying the whole service.
    let services = module.services
    for index in services.indices {
      func base() -> SourceLocation {
        ManifestValidator.location(services[index].source, in: module, ".services[\(index)]")
      }
      _ = requireType(
        services[index].protocolName, "service protocol", in: module,
        at: ManifestValidator.suffixed(base(), ".protocol"), &problems)
      _ = requireType(
        services[index].implementation, "service implementation", in: module,
        at: ManifestValidator.suffixed(base(), ".implementation"), &problems)
    }
    for (index, target) in module.targets.enumerated() {
      _ = requireType(
        target.type, "target", in: module,
        at: ManifestValidator.suffixed(
          ManifestValidator.location(target.source, in: module, ".targets[\(index)]"), ".type"),
        &problems)
    }
    return problems
  }

  private mutating func lookup(_ name: String) -> Found? {
    if let cached = types[name] { return cached }
    // A type registered as a module is known to be one; any other is asked about only if a
    // module names it (`isModule`).
    let found = catalog.lookup(name, knownAs: KnownModule.self).map { found -> Found in
      (found.type, found.known == nil ? nil : true)
    }
    types[name] = found
    return found
  }

  private mutating func isModule(_ name: String, _ found: Found) -> Bool {
    if let known = found.isModule { return known }
    let isModule = found.type is any Module.Type
    types[name] = (found.type, isModule)
    return isModule
  }

  private mutating func requireType(
    _ name: String, _ what: String, in module: ModuleManifest,
    at location: @autoclosure () -> SourceLocation, _ problems: inout [ManifestProblem]
  ) -> Found? {
    if let type = lookup(name) { return type }
    problems.append(ManifestProblem(.typeNotFound, at: location(), notFound(name, what, module)))
    return nil
  }

  /// Where the host looked for `name` (the module's plugin library, if any, and its own types)
  /// and the closest name it knows.
  private mutating func notFound(_ name: String, _ what: String, _ module: ModuleManifest)
    -> String
  {
    if knownNames == nil { knownNames = catalog.names }
    let hint = Suggestion.hint(Suggestion.closestType(to: name, in: knownNames ?? []))
    let text = "\(what) type '\(name)' not found\(hint); "
    guard let library = module.plugin?.path else {
      return text + "the module names no plugin 'library', so only the host's types were "
        + "searched; expected a type name written ModuleName.TypeName whose plugin is linked "
        + "into the host (or registered in the type catalog)"
    }
    return text + "searched plugin library '\(ReadablePath.of(library))' (the module's "
      + "'library') and the host's types; expected a type name written ModuleName.TypeName "
      + "that the library or the host declares"
  }
}

extension ManifestLoader {
  /// A loader that also checks every type name against `catalog`.
  ///
  /// ```swift
  /// let set = ManifestLoader(catalog: TypeCatalog()).load(directory: "Manifests")
  /// ```
  package init(catalog: TypeCatalog) {
    self.init { ModuleTypeCheck(catalog: catalog).typeCheck() }
  }

  /// Cross-checks modules (see ``validate(application:modules:checkTypes:)``) and their type
  /// names against `catalog`.
  package static func validate(
    application: ApplicationManifest?, modules: [ModuleManifest], catalog: TypeCatalog
  ) -> [ManifestProblem] {
    validateIndexing(application: application, modules: modules, catalog: catalog).problems
  }

  /// The problems linking the enabled `modules` to Swift types through `catalog`: the type
  /// names they use, then what ``BootCheck`` finds. Not a cross-check, so it serves modules
  /// added to a running application (`:load`), whose dependencies are not among them: the
  /// kernel would find the same problems only once the modules before them had been set up.
  package static func linkProblems(_ modules: [ModuleManifest], catalog: TypeCatalog)
    -> [ManifestProblem]
  {
    let enabled = modules.filter(\.isEnabled)
    var check = ModuleTypeCheck(catalog: catalog)
    let names = enabled.flatMap { check.problems($0) }
    return names.isEmpty ? BootCheck.problems(enabled, catalog: catalog) : names
  }

  /// Like ``validate(application:modules:catalog:)``; when there is no problem, also the
  /// modules' ``ModuleIndex``, for ``Kernel/init(application:modules:index:catalog:observer:)``.
  package static func validateIndexing(
    application: ApplicationManifest?, modules: [ModuleManifest], catalog: TypeCatalog
  ) -> (problems: [ManifestProblem], index: ModuleIndex?) {
    validateIndexing(
      application: application, modules: modules,
      checkTypes: ModuleTypeCheck(catalog: catalog).typeCheck())
  }
}
