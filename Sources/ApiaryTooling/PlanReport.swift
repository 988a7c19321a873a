import ApiaryKernel
import ApiaryManifest

extension BootPlan {
  /// `apiary plan --format json`: the modules in boot order with level, priority, dependencies
  /// start mode and placement (`host` or `process`). Later manifest fields (`activation`) are
  /// added per module when they exist; readers treat them as optional.
  ///
  /// ```swift
  /// print(kernel.plan.json(application: kernel.application))
  /// ```
  package func json(application: ApplicationManifest) -> String {
    let dormant = dormantModules()
    let modules = modules.enumerated().map { position, module -> [String: Any?] in
      [
        "position": position + 1, "name": module.name, "type": module.type,
        "level": module.level.rawValue, "priority": module.priority,
        "dependencies": module.dependencies, "start": module.isAsync ? "async" : "sync",
        "optional": module.isOptional, "timeout": module.startTimeout,
        "placement": module.placement.rawValue,
        "source": JSONDocument.location(module.source),
        "activation": module.activation.rawValue, "dormant": dormant.contains(module.name),
        "triggers": triggers(of: module).map(\.description),
      ]
    }
    return JSONDocument.render(
      command: "plan",
      [
        "application": [
          "name": application.name, "scheme": application.scheme,
          "environment": application.environment.rawValue,
        ],
        "modules": modules,
      ])
  }
}
