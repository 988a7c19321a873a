import Apiary
import ApiaryKernel
import ApiarySupport

extension BootPlan {
  /// One line a module: position, name, level, priority, flags (`async`/`sync`, `optional`,
  /// `process` for a module placed in a child process) and dependencies; when some module is
  /// lazy or `refused` (an optional module whose plugin the load gate refused, which fails at
  /// boot), also when each wakes (`at boot`, its triggers, or that it is refused). Every cell
  /// sits under its heading. A line an element: a trigger keeps a newline from a manifest (an
  /// event name) in its line, for the host to escape.
  package func table(refused: [String] = []) -> [String] {
    let width = max(6, modules.map(\.name.count).max() ?? 0)
    let dormant = dormantModules()
    let activation = modules.contains(where: \.isLazy) || !refused.isEmpty
    let dependencies = modules.map {
      $0.dependencies.isEmpty ? "-" : $0.dependencies.joined(separator: ", ")
    }
    let flags = modules.map {
      ($0.isAsync ? "async" : "sync ") + ($0.isOptional ? " optional" : "")
        + ($0.placement == .process ? " process" : "")
    }
    // Without an activation column, the dependencies end the line and need no padding.
    let dependencyWidth = activation ? max(10, dependencies.map(\.count).max() ?? 0) : 0
    let flagWidth = max(5, flags.map(\.count).max() ?? 0)
    var lines = [
      "  #  " + "module".padding(width) + "  level   priority  " + "start".padding(flagWidth)
        + "  "
        + (activation ? "depends on".padding(dependencyWidth) + "  activation" : "depends on")
    ]
    for (position, module) in modules.enumerated() {
      let number = String(position + 1)
      var line =
        String(repeating: " ", count: max(0, 3 - number.count)) + number + "  "
        + module.name.padding(width) + "  " + module.level.rawValue.padding(6) + "  "
        + String(module.priority).padding(8) + "  " + flags[position].padding(flagWidth) + "  "
        + dependencies[position].padding(dependencyWidth)
      if activation {
        line +=
          "  "
          + (refused.contains(module.name)
            ? "plugin refused: fails at boot"
            : self.activation(module, dormant: dormant.contains(module.name)))
      }
      lines.append(line)
    }
    return lines
  }

  /// `eager`, `lazy: call to target 'search', event 'note.saved'`, or for a lazy module an
  /// eager one needs, `lazy, at boot (needed by an eager module)`.
  private func activation(_ module: ModuleManifest, dormant: Bool) -> String {
    guard module.isLazy else { return "eager" }
    guard dormant else {
      return "\(module.activation.rawValue), at boot (needed by an eager module)"
    }
    return "\(module.activation.rawValue): "
      + triggers(of: module).map(\.description).joined(separator: ", ")
  }
}
