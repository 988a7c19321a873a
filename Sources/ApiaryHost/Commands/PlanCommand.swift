import Apiary
import ApiaryTooling

/// `apiary plan [DIR]`: the boot order.
enum PlanCommand: HostCommand {
  static let name = "plan"
  static let summary = "Print the boot order with level, priority and dependencies"
  static let usage = """
    USAGE: apiary plan [DIR]

    Prints the order modules boot in: dependencies first, then level (basic before normal),
    then priority (higher first), then manifest order. DIR defaults to \(Host.defaultManifests).
    """

  static func run(_ arguments: Arguments) async -> Int32 {
    let directory = arguments.manifests
    guard let kernel = Host.kernel(at: directory) else { return ExitStatus.failure }
    Output.out("application '\(kernel.application.name)' (\(kernel.application.environment))")
    Output.out(kernel.plan.table())
    return ExitStatus.success
  }
}
