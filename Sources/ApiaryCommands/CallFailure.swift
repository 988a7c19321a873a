import Apiary
import ApiaryProcess

/// How a failed URL call reads, in `apiary call` and `apiary run` alike: an error the action
/// threw says what went wrong but not where, so it follows the target and action
/// (`notes/get: no note with id 5`), and so does a mediator error of a call the action made
/// (`shelf/list: tags/get: missing required parameter 'id'`); the mediator's errors about the
/// call itself, and those of a module that failed to wake or whose child process failed, name
/// where already. Then the hint, if any (``NotFoundHint``).
///
/// ```swift
/// let line = "error: " + (await CallFailure.text(error, calling: url, in: kernel))
/// ```
enum CallFailure {
  static func text(_ error: any Error, calling url: String, in kernel: Kernel) async -> String {
    var text = "\(error)"
    if !(error is ActivationError || error is ProcessModuleError),
      case .success(let action) = kernel.mediator.canOpen(url)
    {
      let place = "\(action.target)/\(action.action): "
      if !(error is MediatorError && text.hasPrefix(place)) { text = place + text }
    }
    return text + (await NotFoundHint.text(for: error, in: kernel))
  }
}
