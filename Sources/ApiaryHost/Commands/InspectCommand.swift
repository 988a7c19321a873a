import Apiary
import ApiaryTooling

/// `apiary inspect [DIR]`: everything the modules registered.
enum InspectCommand: HostCommand {
  static let name = "inspect"
  static let summary = "Boot, list bindings, targets, actions and event handlers, shut down"
  static let usage = """
    USAGE: apiary inspect [DIR] [--format text|json]

    Boots the application in DIR (default \(Host.defaultManifests)) so that every module has
    registered what it provides, then lists every container binding (key, scope, owner), every
    mediator target and action (parameters, remote or local), and every event subscription in
    dispatch order, and shuts down.

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
    guard let kernel = Host.kernel(at: directory) else { return ExitStatus.failure }
    guard await Host.boot(kernel) else { return ExitStatus.failure }
    if format == .json {
      Output.out(await InspectReport.json(kernel))
      await kernel.shutdown()
      return ExitStatus.success
    }
    Output.out("modules:")
    for (name, state) in await kernel.moduleStates {
      Output.out("  \(name.padding(12)) \(state)")
    }
    Output.out("bindings:")
    for binding in kernel.container.bindings { Output.out("  \(binding)") }
    Output.out("targets:")
    for target in kernel.mediator.targets() {
      Output.out("  " + target.description.split(separator: "\n").joined(separator: "\n  "))
    }
    Output.out("events:")
    for (event, owners) in kernel.events.subscriptions {
      Output.out("  \(event.padding(14)) \(owners.joined(separator: " → "))")
    }
    await kernel.shutdown()
    return ExitStatus.success
  }
}
