import Apiary
import ApiaryTooling

/// `apiary validate [DIR]`: every manifest problem, with file, line and key path.
enum ValidateCommand: HostCommand {
  static let name = "validate"
  static let summary = "Check manifests and print every problem"
  static let usage = """
    USAGE: apiary validate [DIR] [--format text|json]

    Reads DIR/app.json (or app.plist) and every module manifest it names, and prints every
    problem found — file, line:column, key path, expected and found — then exits with 1 if there
    were any. It also links every declared type without running module code (services must be
    Injectable and conform, targets Target, declared actions implemented) and reports names that
    would clash in generated clients. DIR defaults to \(Host.defaultManifests).

    OPTIONS:
      --manifests DIR   the same as DIR
      --format FORMAT   text (default) or json (schema in docs/json-output.md)
    """
  static let options: Set<String> = [OutputFormat.option]

  static func run(_ arguments: Arguments) async -> Int32 {
    let directory = arguments.manifests
    let format: OutputFormat
    do { format = try OutputFormat(arguments) } catch {
      return Host.usageError(error, usage: usage)
    }
    let catalog = TypeCatalog()
    var set = ManifestLoader(catalog: catalog).load(directory: directory)
    set.problems += BootCheck.problems(set.enabledModules, catalog: catalog)
    set.problems += WrapperGenerator.nameCollisions(in: set.enabledModules.flatMap(\.targets))
    if format == .json { return json(directory: directory, set: set) }
    guard set.problems.isEmpty, let application = set.application else {
      for problem in set.problems { Output.out("\(problem)") }
      let count = set.problems.count
      Output.err("\(count) problem\(count == 1 ? "" : "s") in \(directory)")
      return ExitStatus.failure
    }
    do {
      _ = try BootPlan(modules: set.modules)
    } catch {
      Output.out("\(directory): \(error)")
      return ExitStatus.failure
    }
    let enabled = set.enabledModules.count
    Output.out(
      "ok: application '\(application.name)', \(enabled) enabled module\(enabled == 1 ? "" : "s")"
        + " in \(set.files.count) file\(set.files.count == 1 ? "" : "s")")
    return ExitStatus.success
  }

  /// The same checks, as one JSON document on standard output; the same exit status.
  private static func json(directory: String, set: ManifestSet) -> Int32 {
    var planError: PlanError?
    if set.problems.isEmpty {
      do { _ = try BootPlan(modules: set.modules) } catch { planError = error }
    }
    Output.out(ValidationReport.json(directory: directory, set: set, planError: planError))
    let valid = set.problems.isEmpty && set.application != nil && planError == nil
    return valid ? ExitStatus.success : ExitStatus.failure
  }
}
