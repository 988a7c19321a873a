import Apiary
import ApiaryProcess

/// How a failed URL call reads, in `apiary call` and `apiary run` alike: an error the action
/// threw says what went wrong but not where, so it follows the target and action
/// (`notes/get: no note with id 5`), and so does a mediator error of a call the action made
/// (`shelf/list: tags/get: missing required parameter 'id'`); the mediator's errors about the
/// call itself, and those of the called target's module that failed to wake or whose child
/// process failed, name where already. Such an error from another module, which the action
/// called, follows the target and action too (`orders/place: module 'payments': its child
/// process is restarting, …`): it read as if the URL had called that module. Then the hint, if
/// any (``NotFoundHint``).
///
/// ```swift
/// let line = "error: " + (await CallFailure.text(error, calling: url, in: kernel))
/// ```
enum CallFailure {
  static func text(_ error: any Error, calling url: String, in kernel: Kernel) async -> String {
    var text = "\(error)"
    if case .success(let action) = kernel.mediator.canOpen(url) {
      let module: String? =
        switch error {
        case let error as ActivationError: error.module
        case let error as ProcessModuleError: error.module
        default: nil
        }
      let namesWhere: Bool
      if let module {
        let owner = await kernel.manifests.first { manifest in
          manifest.targets.contains { $0.name == action.target }
        }
        namesWhere = owner?.name == module
      } else {
        namesWhere = false
      }
      let place = "\(action.target)/\(action.action): "
      if !namesWhere && !(error is MediatorError && text.hasPrefix(place)) { text = place + text }
    }
    return text + (await NotFoundHint.text(for: error, in: kernel))
  }
}
