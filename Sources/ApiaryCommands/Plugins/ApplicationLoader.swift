import Apiary
import ApiaryPluginGate
import ApiaryProcess

/// Turns manifests into modules whose types the catalog knows: reads them, runs the load gate
/// over every plugin library they name (all problems in one pass, before any plugin code runs),
/// opens the accepted libraries, and validates the whole set.
///
/// With `.gateOnly` (for `validate`, `plan` and `generate`) no library is opened: the types a
/// plugin's descriptor declares stand in for the real ones.
///
/// A refused library follows the module failure rules: a required module that names it fails
/// the load with the reasons; an optional one is kept as a module that fails in `setUp` with
/// them, so the kernel marks it failed and skips its dependents.
struct ApplicationLoader {
  enum Plugins { case load, gateOnly }

  /// A plugin library the load gate refused, as it refuses one module: the gate's text, where
  /// the module's manifest names the library, the library's path and the gate's own problem
  /// (file, field, expected, found, hint) when the gate found it, for a JSON report.
  struct Refusal: Sendable, Equatable, CustomStringConvertible {
    let description: String
    var location: SourceLocation?
    var library: String?
    var gate: PluginProblem?
  }

  /// Every problem that stops the application, printable one per line.
  struct Failure: Error, CustomStringConvertible {
    var manifestProblems: [ManifestProblem] = []
    var pluginProblems: [Refusal] = []
    /// What a directory that does not load held, for a report: its application (when the
    /// manifest is usable), its modules and the files read.
    var read = ManifestSet()
    var isEmpty: Bool { manifestProblems.isEmpty && pluginProblems.isEmpty }
    /// The problems a line an element, for ``Host/lines(of:)``.
    var lines: [String] {
      pluginProblems.map { "plugin refused: \($0)" }
        + (manifestProblems.isEmpty ? [] : KernelError.invalidManifests(manifestProblems).lines)
    }
    var description: String { lines.joined(separator: "\n") }
  }

  let plugins: Plugins
  /// Where loaded plugin types are registered; the kernel's catalog.
  let catalog: TypeCatalog
  /// The manifests directory, which `apiary child` reads the application manifest from.
  private var directory = Host.defaultManifests
  /// Problems of optional plugins, which do not stop the application.
  private(set) var notices: [Refusal] = []
  /// Notes of the load gate that refuse nothing (``PluginVerdict/notes``).
  private(set) var notes: [String] = []

  init(plugins: Plugins, catalog: TypeCatalog = TypeCatalog(), directory: String? = nil) {
    self.plugins = plugins
    self.catalog = catalog
    if let directory { self.directory = directory }
  }

  /// The application and its modules in `directory`, with every plugin they name loaded, and
  /// the validator's index of the modules for the kernel's plan.
  mutating func load(directory: String) throws(Failure) -> (
    application: ApplicationManifest, modules: [ModuleManifest], files: [String],
    index: ModuleIndex?
  ) {
    self.directory = directory
    let set = ManifestLoader(catalog: catalog).loadUnvalidated(directory: directory)
    // Broken manifests are still checked through, for one report, but load no plugin code.
    var failure = Failure()
    let (modules, placesAProcess) = resolve(set.modules, opening: set.problems.isEmpty, &failure)
    // Placement problems come before the plugins'; only a module placed in a process has them.
    let placement = placesAProcess ? ProcessPlacement.problems(set.modules) : []
    failure.manifestProblems = set.problems + placement + failure.manifestProblems
    let (problems, index) = ManifestLoader.validateIndexing(
      application: set.application, modules: modules, catalog: catalog)
    failure.manifestProblems += problems
    guard failure.isEmpty, let application = set.application else {
      failure.read = ManifestSet(
        application: set.application, modules: set.modules, files: set.files)
      throw failure
    }
    if let note = Self.undeclaredFallback(application, modules) { notes.append(note) }
    return (application, modules, set.files, index)
  }

  /// A note when the application's fallback names a target no enabled module declares: it may
  /// be registered in code, so it is not a problem, but a typo shows only as "no fallback
  /// handled the call".
  static func undeclaredFallback(_ application: ApplicationManifest, _ modules: [ModuleManifest])
    -> String?
  {
    guard let fallback = application.fallback else { return nil }
    let targets = modules.filter(\.isEnabled).flatMap { $0.targets.map(\.name) }
    guard !targets.contains(fallback.target) else { return nil }
    return "the application's fallback names target '\(fallback.target)', which no module "
      + "declares\(Suggestion.hint(for: fallback.target, in: targets)); unless a module "
      + "registers it in code, no call falls back"
  }

  /// The modules of one more module file (`:load`), gated and loaded like those at boot. Every
  /// module of a refused plugin is refused, optional or not.
  mutating func load(file: String) throws(Failure) -> [ModuleManifest] {
    let set = ManifestLoader(catalog: catalog).decodeModules(file: file)
    guard set.problems.isEmpty else {
      // An application manifest given by mistake gets that said, not each key it has.
      let isApplication = set.problems.contains {
        $0.kind == .unknownKey && $0.location.keyPath == "scheme"
      }
      throw Failure(
        manifestProblems: isApplication
          ? [
            ManifestProblem(
              .invalidValue, at: SourceLocation(file: file),
              "an application manifest (it has \"scheme\"); ':load' takes a module manifest, a "
                + "file of \"modules\" like those the application's \"modules\" names")
          ] : set.problems)
    }
    var failure = Failure()
    let required = set.modules.map { module in
      var module = module
      module.isOptional = false
      return module
    }
    let modules = resolve(required, opening: true, validated: false, &failure).modules
    guard failure.isEmpty else { throw failure }
    // Before any of them is set up: a type that would not link fails the file at once.
    failure.manifestProblems = ManifestLoader.linkProblems(modules, catalog: catalog)
    guard failure.isEmpty else { throw failure }
    return modules
  }

  /// Gates the plugin libraries `modules` name and, when `opening` and no required module's
  /// library was refused, opens the accepted ones. Returns the modules to plan, with optional
  /// modules of refused plugins replaced by ``RefusedPluginModule``, and whether an enabled one
  /// is placed in a process. With `validated`, the types of a refused required module get
  /// stand-ins, so validation does not report them missing as well; without it (`:load`, which
  /// stops at the refusal), the catalog keeps none.
  private mutating func resolve(
    _ modules: [ModuleManifest], opening: Bool, validated: Bool = true, _ failure: inout Failure
  ) -> (modules: [ModuleManifest], placesAProcess: Bool) {
    var requests: [PluginRequest] = []
    var placesAProcess = false
    for module in modules where module.isEnabled {
      placesAProcess = placesAProcess || module.placement == .process
      guard module.namesPlugin, let plugin = module.plugin else { continue }
      let origin = plugin.source.map(String.init(describing:)) ?? "module '\(module.name)'"
      if let first = requests.first(where: { $0.path == plugin.path }) {
        if first.version != plugin.version {
          failure.pluginProblems.append(
            Refusal(
              description: "\(plugin.path): version: \(origin) expects \(plugin.version), "
                + "\(first.origin) expects \(first.version); "
                + PluginGate.declaredVersion(of: plugin.path), location: plugin.source,
              library: plugin.path))
        }
        continue
      }
      requests.append(
        PluginRequest(
          path: plugin.path, version: plugin.version, sha256: plugin.sha256, origin: origin))
    }
    guard !requests.isEmpty else {
      // Most applications place nothing in a process: their modules are returned as they are.
      return (
        placesAProcess ? modules.map { $0.isEnabled ? placed($0) : $0 } : modules, placesAProcess
      )
    }
    catalog.register(RefusedPluginModule.self)
    // Libraries of process-placed modules are gated here and opened by their child, which gates
    // its library alone (it binds to none of the host's plugins or contract libraries): so here.
    let inHost = Set(
      modules.filter { $0.isEnabled && $0.placement == .host }.compactMap(\.plugin?.path))
    var verdict = PluginGate.check(requests.filter { inHost.contains($0.path) })
    for request in requests where !inHost.contains(request.path) {
      verdict.add(PluginGate.check([request], alone: true))
    }
    notes += verdict.notes
    let requiredRefused = modules.contains { module in
      module.isEnabled && !module.isOptional
        && module.plugin.map { verdict.accepted[$0.path] == nil } ?? false
    }
    let opens = plugins == .load && opening && !requiredRefused
    for request in requests {
      guard let accepted = verdict.accepted[request.path] else { continue }
      switch opens && inHost.contains(request.path) {
      case true:
        do {
          try PluginLibrary.open(request, accepted: accepted, into: catalog)
        } catch {
          verdict.accepted.remove(request.path)
          verdict.problems.append((request.path, error.description, nil))
        }
      case false:
        for name in accepted.descriptor.modules {
          catalog.register(RefusedPluginModule.self, as: name)
        }
        for name in accepted.descriptor.targets { catalog.register(DeclaredType.self, as: name) }
      }
    }
    var result: [ModuleManifest] = []
    for module in modules {
      guard module.isEnabled, let plugin = module.plugin else {
        result.append(module.isEnabled ? placed(module) : module)
        continue
      }
      guard let accepted = verdict.accepted[plugin.path] else {
        let found = verdict.problems.filter { $0.library == plugin.path }
        let reasons = found.map(\.text)
        let refusals = found.map { problem in
          Refusal(
            description: problem.text, location: plugin.source, library: plugin.path,
            gate: problem.gate)
        }
        if module.isOptional {
          notices += refusals
          result.append(RefusedPluginModule.standIn(for: module, reasons: reasons))
        } else {
          failure.pluginProblems += refusals
          if validated { standIn(for: module) }  // its types are not reported again as missing
          result.append(module)
        }
        continue
      }
      let undeclared = Self.undeclaredTypes(module, accepted.descriptor)
      failure.manifestProblems += undeclared
      // Each is reported once, as the plugin's: the type check would call them missing too.
      if !undeclared.isEmpty && validated { standIn(for: module) }
      // Service types live in the library (or its contracts), which is not opened here.
      if !opens, module.placement == .host { standIn(for: module) }
      result.append(placed(module))
    }
    // A library several modules name, or a contract library several plugins need, is refused
    // once, where the first names it; a notice repeating a failure is not said again.
    failure.pluginProblems = Self.once(failure.pluginProblems)
    notices = Self.once(notices, besides: failure.pluginProblems)
    return (result, placesAProcess)
  }

  /// A process-placed module's stand-in (``ProcessPlacement``); any other module as it is.
  private func placed(_ module: ModuleManifest) -> ModuleManifest {
    guard module.placement == .process else { return module }
    ProcessPlacement.prepare(catalog)
    PluginGate.installHandshake()
    let command = ProcessPlacement.command(
      for: module, apiary: ProcessPlacement.executable, manifests: directory)
    return ProcessPlacement.proxy(for: module, command: command)
  }

  /// For `apiary child`: the application in `directory` and the module `name` declared in
  /// `file`, its plugin library gated and opened as in the host, placed in this process.
  mutating func loadChild(name: String, file: String, directory: String) throws(Failure) -> (
    application: ApplicationManifest, module: ModuleManifest
  ) {
    let set = ManifestLoader(catalog: catalog).loadUnvalidated(directory: directory)
    guard let application = set.application else {
      throw Failure(manifestProblems: set.problems)
    }
    let declared = ManifestLoader(catalog: catalog).decodeModules(file: file)
    guard var module = declared.modules.first(where: { $0.name == name }) else {
      // A file with problems is reported by them alone; the module may be behind them.
      guard declared.problems.isEmpty else { throw Failure(manifestProblems: declared.problems) }
      throw Failure(pluginProblems: [Refusal(description: "\(file): no module named '\(name)'")])
    }
    module.placement = .host
    module.isOptional = false
    var failure = Failure()
    let resolved = resolve([module], opening: true, &failure).modules
    guard failure.isEmpty, let loaded = resolved.first else { throw failure }
    return (application, loaded)
  }

  /// `refusals` without those said before them or in `said`.
  private static func once(_ refusals: [Refusal], besides said: [Refusal] = []) -> [Refusal] {
    var seen = Set(said.map(\.description))
    return refusals.filter { seen.insert($0.description).inserted }
  }

  /// Registers stand-ins for the types `module` names that the catalog does not know, for a
  /// module whose library is not opened.
  private func standIn(for module: ModuleManifest) {
    if catalog.lookup(module.type) == nil {
      catalog.register(RefusedPluginModule.self, as: module.type)
    }
    let names =
      module.targets.map(\.type) + module.services.flatMap { [$0.protocolName, $0.implementation] }
    for name in names where catalog.lookup(name) == nil {
      catalog.register(DeclaredType.self, as: name)
    }
  }

  /// Module and target types of `module` that its plugin's descriptor does not export, each
  /// problem naming the plugin and its library.
  static func undeclaredTypes(_ module: ModuleManifest, _ plugin: PluginDescriptor)
    -> [ManifestProblem]
  {
    var problems: [ManifestProblem] = []
    let library = module.plugin.map { " (library '\(ReadablePath.of($0.path))')" } ?? ""
    var location = module.source ?? SourceLocation(file: "module '\(module.name)'")
    let base = location.keyPath
    if !plugin.modules.contains(module.type) {
      location.keyPath = base + ".type"
      problems.append(
        ManifestProblem(
          .typeNotFound, at: location,
          "module type '\(module.type)' is not exported by plugin '\(plugin.plugin)'\(library); "
            + "its descriptor exports \(plugin.modules)"
            + Suggestion.hint(for: module.type, in: plugin.modules)))
    }
    for (index, target) in module.targets.enumerated() where !plugin.targets.contains(target.type) {
      var at = target.source ?? location
      at.keyPath = target.source == nil ? base + ".targets[\(index)].type" : at.keyPath + ".type"
      problems.append(
        ManifestProblem(
          .typeNotFound, at: at,
          "target type '\(target.type)' is not exported by plugin '\(plugin.plugin)'\(library); "
            + "its descriptor exports \(plugin.targets)"
            + Suggestion.hint(for: target.type, in: plugin.targets)))
    }
    return problems
  }
}

/// Stands in for a type a plugin declares while its library is not opened.
final class DeclaredType {}
