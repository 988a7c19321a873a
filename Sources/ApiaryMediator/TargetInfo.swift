import ApiaryManifest
import ApiarySupport

/// A target as `apiary inspect` shows it: its name, owner, type and declared actions.
///
/// ```swift
/// for target in mediator.targets() {
///   print(target)  // notes (module notes, NotesPlugin.NotesTarget)
///                  //   create(title: string, pinned: bool = false) -> object [remote]
/// }
/// ```
package struct TargetInfo: Sendable, Hashable, CustomStringConvertible {
  package let name: String
  /// The module that declared the target.
  package let owner: String
  package let type: String
  /// The declared actions, sorted by name.
  package let actions: [ActionManifest]
  /// Whether a cached instance exists right now.
  package let isCached: Bool

  package var description: String {
    var lines = ["\(name) (module \(owner), \(type))"]
    for action in actions {
      let parameters = action.parameters.map { parameter in
        var text = "\(parameter.name): \(parameter.kind.rawValue)"
        if let value = parameter.defaultValue {
          text += " = " + (JSONWriter.json(value) ?? "\(value)")
        }
        if !parameter.isRequired, parameter.defaultValue == nil { text += "?" }
        return text
      }
      var line = "  \(action.name)(\(parameters.joined(separator: ", "))) -> \(action.returns)"
      line += action.isRemote ? " [remote]" : " [local]"
      if let summary = action.summary { line += "  \(summary)" }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }
}
