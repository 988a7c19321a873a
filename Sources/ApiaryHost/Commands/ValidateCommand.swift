import Apiary
import ApiaryTooling

/// `apiary validate [DIR]`: every manifest problem, with file, line and key path.
enum ValidateCommand: HostCommand {
  static let name = "validate"
  static let summary = "Check manifests and print every problem"
  static let usage = """
    USAGE: apiary validate [DIR]

    Reads DIR/app.json (or app.plist) and every module manifest it names, and prints every
    problem found — file, line:column, key path, expected and found — then exits with 1 if there
    were any. It also links every declared type without running module code (services must be
    Injectable, targets Target, declared actions implemented) and reports names that would clash
    in generated clients. DIR defaults to \(Host.defaultManifests).
    """

  static func run(_ arguments: Arguments) async -> Int32 {
    let directory = arguments.manifests
    let catalog = TypeCatalog()
    let set = ManifestLoader(catalog: catalog).load(directory: directory)
    let problems =
      set.problems + BootCheck.problems(set.enabledModules, catalog: catalog)
      + WrapperGenerator.nameCollisions(in: set.enabledModules.flatMap(\.targets))
    guard problems.isEmpty, let application = set.application else {
      for problem in problems { Output.out("\(problem)") }
      let count = problems.count
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
}
