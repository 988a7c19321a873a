import ApiaryContainer
import ApiaryKernel
import ApiaryManifest
import ApiaryMediator

/// `apiary inspect --format json`: the modules and their states, every binding, every target
/// with its actions (and their parameter schemas), and every event subscription.
///
/// ```swift
/// try await kernel.boot()
/// print(await InspectReport.json(kernel))
/// ```
package enum InspectReport {
  package static func json(_ kernel: Kernel) async -> String {
    let modules = await kernel.moduleStates.map { name, state -> [String: Any?] in
      ["name": name, "state": state.description]
    }
    return JSONDocument.render(
      command: "inspect",
      [
        "modules": modules,
        "bindings": kernel.container.bindings.map(binding),
        "targets": kernel.mediator.targets().map(target),
        "subscriptions": kernel.events.subscriptions.map { event, owners -> [String: Any?] in
          ["event": event, "handlers": owners]
        },
      ])
  }

  static func binding(_ info: BindingInfo) -> [String: Any?] {
    [
      "key": info.key.description, "type": info.key.typeName, "name": info.key.name,
      "scope": info.scope.rawValue, "owner": info.owner, "kind": info.kind.description,
      "eager": info.isEager, "built": info.isBuilt, "source": JSONDocument.location(info.source),
    ]
  }

  static func target(_ info: TargetInfo) -> [String: Any?] {
    [
      "name": info.name, "owner": info.owner, "type": info.type,
      "actions": info.actions.map { action -> [String: Any?] in
        [
          "name": action.name, "remote": action.isRemote, "returns": action.returns.rawValue,
          "summary": action.summary,
          "parameters": action.parameters.map { parameter -> [String: Any?] in
            [
              "name": parameter.name, "type": parameter.kind.rawValue,
              "required": parameter.isRequired, "default": parameter.defaultValue,
            ]
          },
          "schema": ActionSchema.schema(for: action),
        ]
      },
    ]
  }
}
