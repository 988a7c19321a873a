import Apiary

/// `apiary validate [DIR]`: every manifest problem, with file, line and key path.
enum ValidateCommand: HostCommand {
  static let name = "validate"
  static let summary = "Check manifests and print every problem"
  static let usage = """
    USAGE: apiary validate [DIR]

    Reads DIR/app.json (or app.plist) and every module manifest it names, runs the plugin load
    gate over every library they name (without loading any plugin code), and prints every
    problem found — file, line:column, key path, expected and found — then exits with 1 if there
    were any. DIR defaults to \(Host.defaultManifests).
    """

  static func run(_ arguments: Arguments) async -> Int32 {
    let directory = arguments.manifests
    var loader = ApplicationLoader(plugins: .gateOnly)
    let loaded: (application: ApplicationManifest, modules: [ModuleManifest], files: [String])
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
    let (application, set) = (loaded.application, loaded)
    do {
      _ = try BootPlan(modules: set.modules)
    } catch {
      Output.out("\(directory): \(error)")
      return ExitStatus.failure
    }
    let enabled = set.modules.filter(\.isEnabled).count
    Output.out(
      "ok: application '\(application.name)', \(enabled) enabled module\(enabled == 1 ? "" : "s")"
        + " in \(set.files.count) file\(set.files.count == 1 ? "" : "s")")
    return ExitStatus.success
  }

  private static func report(_ lines: [String], in directory: String) -> Int32 {
    for line in lines { Output.out(line) }
    Output.err("\(lines.count) problem\(lines.count == 1 ? "" : "s") in \(directory)")
    return ExitStatus.failure
  }
}
