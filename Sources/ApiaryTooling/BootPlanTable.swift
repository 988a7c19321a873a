import Apiary
import ApiaryKernel
import ApiarySupport

extension BootPlan {
  /// One line a module: position, name, level, priority, flags (`async`/`sync`, `optional`,
  /// `process` for a module placed in a child process) and dependencies.
  package func table() -> String {
    let width = max(6, modules.map(\.name.count).max() ?? 0)
    var lines = ["  #  " + "module".padding(width) + "  level   priority  start  depends on"]
    for (position, module) in modules.enumerated() {
      let number = String(position + 1)
      let flags =
        (module.isAsync ? "async" : "sync ") + (module.isOptional ? " optional" : "")
        + (module.placement == .process ? " process" : "")
      lines.append(
        String(repeating: " ", count: max(0, 3 - number.count)) + number + "  "
          + module.name.padding(width) + "  " + module.level.rawValue.padding(6) + "  "
          + String(module.priority).padding(8) + "  " + flags.padding(5) + "  "
          + (module.dependencies.isEmpty ? "-" : module.dependencies.joined(separator: ", ")))
    }
    return lines.joined(separator: "\n")
  }
}
