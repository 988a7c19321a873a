import Apiary
import ApiaryManifest
import ApiaryMediator

/// "Did you mean …?" for a name that matches nothing, as the host prints it: for a call, the
/// closest target name or the closest action name of the target, and for a target whose module
/// is in the plan but not running, why not; the closest module name (`:remove`), bound type
/// (`:resolve`) or subscribed event (`:post`). Worked out only when the host prints the
/// error, never when a call fails inside the application.
///
/// ```swift
/// NotFoundHint.text(for: error, in: kernel.mediator)  // " (did you mean 'notes'?)" for 'notse'
/// await NotFoundHint.text(for: error, in: kernel)  // " (module 'search' failed in setUp: …)"
/// NotFoundHint.text(forType: "NoteStore", in: kernel.container)
/// // " (did you mean 'NotebookKit.NoteStore'?)"
/// ```
enum NotFoundHint {
  static func text(for error: any Error, in kernel: Kernel) async -> String {
    if case .unknownModule(let name)? = (error as? KernelError)?.details {
      return Suggestion.hint(for: name, in: await kernel.moduleStates.map(\.name))
    }
    if case .targetNotFound(let target, _)? = (error as? MediatorError)?.details,
      let module = await kernel.manifests.first(where: { module in
        module.targets.contains { $0.name == target }
          || RefusedPluginModule.declaredTargets(of: module).contains(target)
      }),
      let state = await kernel.state(of: module.name), state != .running
    {
      return " (module '\(module.name)' \(state))"
    }
    return text(for: error, in: kernel.mediator)
  }

  /// For a protocol name that names no type (`:resolve NoteStore`): the closest bound type, by
  /// its full name or by its name without the module's (`NotebookKit.NoteStore`).
  static func text(forType name: String, in container: Container) -> String {
    Suggestion.hint(
      Suggestion.closestType(to: name, in: Set(container.bindings.map(\.key.typeName)).sorted()))
  }

  /// For an event no handler saw (`:post note.savd`): that no module subscribes to it, and the
  /// closest event some module does subscribe to.
  static func text(for report: DispatchReport, in bus: EventBus) -> String {
    guard report.handledBy.isEmpty, report.ignoredBy.isEmpty, report.failures.isEmpty else {
      return ""
    }
    return "; no module subscribes to it"
      + Suggestion.hint(for: report.event, in: bus.subscriptions.map(\.event))
  }

  static func text(for error: any Error, in mediator: Mediator) -> String {
    guard let error = error as? MediatorError else { return "" }
    switch error.details {
    case .targetNotFound(let target, _):
      return Suggestion.hint(for: target, in: mediator.targets().map(\.name))
    case .actionNotFound(let target, let action):
      let actions = mediator.targets().first { $0.name == target }?.actions.map(\.name) ?? []
      return Suggestion.hint(for: action, in: actions)
    default:
      return ""
    }
  }
}
