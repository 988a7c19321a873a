import Apiary
import ApiaryManifest
import ApiaryMediator

/// "Did you mean …?" for a call to a target or action that does not exist, as the host prints
/// it: the closest target name, or the closest action name of the target. Worked out only when
/// the host prints the error, never when a call fails inside the application.
///
/// ```swift
/// NotFoundHint.text(for: error, in: kernel.mediator)  // " (did you mean 'notes'?)" for 'notse'
/// ```
enum NotFoundHint {
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
