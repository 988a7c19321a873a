import Apiary

/// `apiary inspect [DIR]`: everything the modules registered.
enum InspectCommand: HostCommand {
  static let name = "inspect"
  static let summary = "Boot, list bindings, targets, actions and event handlers, shut down"
  static let usage = """
    USAGE: apiary inspect [DIR]

    Boots the application in DIR (default \(Host.defaultManifests)) so that every module has
    registered what it provides, then lists every container binding (key, scope, owner), every
    mediator target and action (parameters, remote or local), and every event subscription in
    dispatch order, and shuts down.
    """

  static func run(_ arguments: Arguments) async -> Int32 {
    let directory = arguments.manifests
    guard let kernel = Host.kernel(at: directory) else { return ExitStatus.failure }
    guard await Host.boot(kernel) else { return ExitStatus.failure }
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
