import Apiary
import ApiaryManifest
import ApiaryMediator

/// "Did you mean …?" for a call to a target or action that does not exist, as the host prints
/// it: the closest target name, or the closest action name of the target; for a target whose
/// module is in the plan but not running, why not. Worked out only when the host prints the
/// error, never when a call fails inside the application.
///
/// ```swift
/// NotFoundHint.text(for: error, in: kernel.mediator)  // " (did you mean 'notes'?)" for 'notse'
/// await NotFoundHint.text(for: error, in: kernel)  // " (module 'search' failed in setUp: …)"
/// ```
enum NotFoundHint {
  static func text(for error: any Error, in kernel: Kernel) async -> String {
    if case .targetNotFound(let target, _)? = (error as? MediatorError)?.details,
      let module = kernel.plan.modules.first(where: { $0.targets.contains { $0.name == target } }),
      let state = await kernel.state(of: module.name), state != .running
    {
      return " (module '\(module.name)' \(state))"
    }
    return text(for: error, in: kernel.mediator)
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
