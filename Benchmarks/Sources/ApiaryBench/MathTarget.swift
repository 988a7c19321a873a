import Apiary

/// The mediator cases' target: `add` (local) and `sum3` (remote, for URLs).
final class MathTarget: Target {
  init(context: ModuleContext) throws {}

  static let actions: ActionTable<MathTarget> = [
    "add": .sync { _, params in try params.int("a") + params.int("b") },
    "sum3": .sync { _, params in try params.int("a") + params.int("b") + params.int("c") },
  ]

  /// The manifest a module declares the target with.
  static let manifest = TargetManifest(
    name: "math", type: "ApiaryBench.MathTarget",
    actions: [
      ActionManifest(
        name: "add", parameters: ["a", "b"].map(required), returns: .int),
      ActionManifest(
        name: "sum3", isRemote: true, parameters: ["a", "b", "c"].map(required), returns: .int),
    ])

  private static func required(_ name: String) -> ParameterManifest {
    ParameterManifest(name: name, kind: .int, isRequired: true)
  }
}
