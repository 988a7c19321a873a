import Apiary

/// `apiary plan [DIR]`: the boot order.
enum PlanCommand: HostCommand {
  static let name = "plan"
  static let summary = "Print the boot order with level, priority and dependencies"
  static let usage = """
    USAGE: apiary plan [DIR]

    Prints the order modules boot in: dependencies first, then level (basic before normal),
    then priority (higher first), then manifest order. DIR defaults to \(Host.defaultManifests).
    """
  static let flags: Set<String> = []
  static let options: Set<String> = []

  static func run(_ arguments: Arguments) async -> Int32 {
    let directory: String
    do {
      directory = try arguments.manifestsDirectory()
    } catch {
      return Host.usageError(error, usage: usage)
    }
    guard let kernel = Host.kernel(at: directory) else { return ExitStatus.failure }
    Output.out("application '\(kernel.application.name)' (\(kernel.application.environment))")
    Output.out(lines: kernel.plan.table().lines)
    return ExitStatus.success
  }
}
