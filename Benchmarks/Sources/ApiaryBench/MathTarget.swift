import Apiary

/// The mediator cases' target: `add` (local) and `sum3` (remote, for URLs).
final class MathTarget: Target {
  init(context: ModuleContext) throws {}

  static let actions: ActionTable<MathTarget> = [
    "add": .sync { _, params in try params.int("a") + params.int("b") },
    "sum3": .sync { _, params in try params.int("a") + params.int("b") + params.int("c") },
  ]

  /// The manifest of a module `name` that declares the target as `target`, with `fields` (JSON
  /// members, each followed by a comma) added.
  static func module(
    _ name: String = "math", target: String = "math", activation: String = "eager",
    fields: String = ""
  ) -> String {
    """
    { "name": "\(name)", "type": "ApiaryBench.QuietModule", "activation": "\(activation)", \(fields)
      "targets": [ { "name": "\(target)", "type": "ApiaryBench.MathTarget", "actions": [
        { "name": "add", "returns": "int", "parameters": [
          { "name": "a", "type": "int", "required": true },
          { "name": "b", "type": "int", "required": true } ] },
        { "name": "sum3", "remote": true, "returns": "int", "parameters": [
          { "name": "a", "type": "int", "required": true },
          { "name": "b", "type": "int", "required": true },
          { "name": "c", "type": "int", "required": true } ] } ] } ] }
    """
  }
}
