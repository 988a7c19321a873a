import Apiary
import ApiaryTooling

/// `apiary validate [DIR]`: every manifest problem, with file, line and key path.
enum ValidateCommand: HostCommand {
  static let name = "validate"
  static let summary = "Check manifests and print every problem"
  static let usage = """
    USAGE: apiary validate [DIR] [--format text|json]

    Reads DIR/app.json (or app.plist) and every module manifest it names, runs the plugin load
    gate over every library they name (without loading any plugin code), and prints every
    problem found — file, line:column, key path, expected and found — then exits with 1 if there
    were any. Once every library has passed the gate, it opens them as `run` does and links every
    declared type without running module code (services Injectable and conforming, targets
    Target, declared actions implemented), so "ok" means the application gets past set-up's
    checks. Names that would clash in generated clients are reported too. DIR defaults to
    \(Host.defaultManifests).

    OPTIONS:
      --manifests DIR   the same as DIR
      --format FORMAT   text (default) or json (schema in docs/json-output.md); plugin
                        refusals are problems whose message starts "plugin refused:", the
                        load gate's fields in their "refusal" and "hint"
    """
  static let options: Set<String> = [OutputFormat.option]

  static func run(_ arguments: Arguments) async throws(UsageError) -> Int32 {
    let directory = arguments.manifests
    let format = try OutputFormat(arguments)
    var loader = ApplicationLoader(plugins: .load)
    if format == .json { return json(directory: directory, loader: &loader) }
    let loaded:
      (
        application: ApplicationManifest, modules: [ModuleManifest], files: [String],
        index: ModuleIndex?
      )
    do {
      loaded = try loader.load(directory: directory)
    } catch {
      let lines =
        error.pluginProblems.map { "plugin refused: \($0)" }
        + error.manifestProblems.map(\.description)
      return report(lines + loader.notices.map { "plugin refused: \($0)" }, in: directory)
    }
    guard loader.notices.isEmpty else {
      return report(loader.notices.map { "plugin refused: \($0)" }, in: directory)
    }
    let linkProblems = linkProblems(loaded.modules, catalog: loader.catalog)
    guard linkProblems.isEmpty else {
      return report(linkProblems.map(\.description), in: directory)
    }
    let (application, set) = (loaded.application, loaded)
    do {
      _ = try BootPlan(modules: set.modules)
    } catch {
      Output.out("\(directory): \(error)")
      return ExitStatus.failure
    }
    for note in loader.notes { StandardError.print("note: \(note)") }
    let enabled = set.modules.filter(\.isEnabled).count
    Output.out(
      "ok: application '\(application.name)', \(enabled) enabled module\(enabled == 1 ? "" : "s")"
        + " in \(set.files.count) file\(set.files.count == 1 ? "" : "s")")
    return ExitStatus.success
  }

  private static func report(_ lines: [String], in directory: String) -> Int32 {
    for line in lines { Output.out(line) }
    StandardError.print("\(lines.count) problem\(lines.count == 1 ? "" : "s") in \(directory)")
    return ExitStatus.failure
  }

  /// The same checks, as one JSON document on standard output; the same exit status.
  private static func json(directory: String, loader: inout ApplicationLoader) -> Int32 {
    var set = ManifestSet()
    var refusals: [ValidationReport.Refusal] = []
    do {
      let loaded = try loader.load(directory: directory)
      set = ManifestSet(
        application: loaded.application, modules: loaded.modules, files: loaded.files)
    } catch {
      set = error.read
      set.problems = error.manifestProblems
      refusals = error.pluginProblems.map { refusal($0, in: directory) }
    }
    refusals += loader.notices.map { refusal($0, in: directory) }
    if set.problems.isEmpty && refusals.isEmpty {
      set.problems += linkProblems(set.modules, catalog: loader.catalog)
    }
    var planError: PlanError?
    if set.problems.isEmpty && refusals.isEmpty {
      do { _ = try BootPlan(modules: set.modules) } catch { planError = error }
    }
    Output.out(
      ValidationReport.json(
        directory: directory, set: set, refusals: refusals, planError: planError))
    let valid =
      set.problems.isEmpty && refusals.isEmpty && set.application != nil && planError == nil
    return valid ? ExitStatus.success : ExitStatus.failure
  }

  /// What would fail at boot before any module code runs (``BootCheck``; the plugin libraries
  /// are open by now), and names that would clash in generated clients.
  private static func linkProblems(_ modules: [ModuleManifest], catalog: TypeCatalog)
    -> [ManifestProblem]
  {
    ManifestLoader.linkProblems(modules, catalog: catalog)
      + WrapperGenerator.nameCollisions(in: modules.filter(\.isEnabled).flatMap(\.targets))
  }

  /// A load gate refusal for the JSON report, at the manifest entry that names the library
  /// (else at the manifests directory), with the gate's own fields.
  private static func refusal(_ refusal: ApplicationLoader.Refusal, in directory: String)
    -> ValidationReport.Refusal
  {
    let gate = refusal.gate.map { problem in
      ValidationReport.Refusal.Gate(
        kind: problem.kind.rawValue, plugin: problem.subject, field: problem.field,
        descriptorLine: problem.line, expected: problem.expected, found: problem.found,
        hint: problem.hint)
    }
    return ValidationReport.Refusal(
      location: refusal.location ?? SourceLocation(file: directory),
      message: "plugin refused: \(refusal)", library: refusal.gate?.file ?? refusal.library,
      gate: gate)
  }
}
