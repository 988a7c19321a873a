import Apiary
import ApiaryTooling

/// `apiary inspect [DIR]`: everything the modules registered.
enum InspectCommand: HostCommand {
  static let name = "inspect"
  static let summary = "Boot, list bindings, targets, actions and event handlers, shut down"
  static let usage = """
    USAGE: apiary inspect [DIR] [--format text|json] [--shutdown-timeout SECONDS]

    Boots the application in DIR (default \(Host.defaultManifests)) so that every module has
    registered what it provides, then lists every container binding (key, scope, owner), every
    mediator target and action (parameters, remote or local), and every event subscription in
    dispatch order, and shuts down. SIGINT or SIGTERM behaves as for 'apiary call'.

    OPTIONS:
      --manifests DIR             the same as DIR
      --format FORMAT             text (default) or json (schema in docs/json-output.md)
      \(Host.shutdownTimeoutUsage)
    """
  static let options: Set<String> = [OutputFormat.option, "--shutdown-timeout"]

  static func run(_ arguments: Arguments) async throws(UsageError) -> Int32 {
    let shutdownTimeout = try arguments.shutdownTimeout()
    let directory = arguments.manifests
    let format = try OutputFormat(arguments)
    guard let kernel = Host.kernel(at: directory) else { return ExitStatus.failure }
    let status = await Host.session(kernel, shutdownTimeout: shutdownTimeout) {
      if format == .json {
        Output.out(await InspectReport.json(kernel))
        return ExitStatus.success
      }
      var lines = ["modules:"]
      for (name, state) in await kernel.moduleStates {
        lines.append("  " + Session.line(name, state))
      }
      lines.append("bindings:")
      for binding in kernel.container.bindings { lines.append("  \(binding)") }
      lines.append("targets:")
      for target in kernel.mediator.targets() {
        lines += target.description.lines.map { "  " + $0 }
      }
      lines.append("events:")
      for (event, owners) in kernel.events.subscriptions {
        lines.append("  \(event.padding(14)) \(owners.joined(separator: " → "))")
      }
      Output.out(lines: lines)
      return ExitStatus.success
    }
    guard let status else {
      StandardError.print("error: interrupted; nothing listed")
      return ExitStatus.failure
    }
    return status
  }
}
