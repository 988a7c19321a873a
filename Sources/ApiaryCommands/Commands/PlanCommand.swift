import Apiary
import ApiaryTooling

/// `apiary plan [DIR]`: the boot order.
enum PlanCommand: HostCommand {
  static let name = "plan"
  static let summary = "Print the boot order with level, priority and dependencies"
  static let usage = """
    USAGE: apiary plan [DIR] [--format text|json]

    Prints the order modules boot in: dependencies first, then level (basic before normal),
    then priority (higher first), then manifest order. DIR defaults to \(Host.defaultManifests).
    The load gate checks the plugin libraries first (no plugin code runs), so build them
    before: a required module whose plugin is refused fails the plan with the reason.

    OPTIONS:
      --manifests DIR   the same as DIR
      --format FORMAT   text (default) or json (schema in docs/json-output.md)
    """
  static let options: Set<String> = [OutputFormat.option]

  static func run(_ arguments: Arguments) async throws(UsageError) -> Int32 {
    let directory = arguments.manifests
    let format = try OutputFormat(arguments)
    guard let kernel = Host.kernel(at: directory, plugins: .gateOnly) else {
      return ExitStatus.failure
    }
    if format == .json {
      Output.out(kernel.plan.json(application: kernel.application))
      return ExitStatus.success
    }
    Output.out("application '\(kernel.application.name)' (\(kernel.application.environment))")
    Output.out(lines: kernel.plan.table(refused: RefusedPluginModule.names(in: kernel.plan)))
    return ExitStatus.success
  }
}
