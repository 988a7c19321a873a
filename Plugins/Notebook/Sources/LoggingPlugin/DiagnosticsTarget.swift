import Apiary

/// The `diagnostics` target: call metrics, and the application-wide not-found fallback
/// (`fallback` in `Manifests/app.json`).
final class DiagnosticsTarget: Target {
  let metrics: CallMetrics

  init(context: ModuleContext) throws {
    metrics = try context.container.resolve(CallMetrics.self)
  }

  static let actions: ActionTable<DiagnosticsTarget> = [
    "metrics": .sync { target, _ in target.metrics.snapshot },
    "notFound": .sync { _, params in
      let target = (try? params.string("target")) ?? "?"
      let action = (try? params.string("action")) ?? "?"
      throw DiagnosticsError.noSuchAction(target: target, action: action)
    },
  ]
}

/// What the fallback reports for a call nobody can answer.
enum DiagnosticsError: Error, CustomStringConvertible {
  case noSuchAction(target: String, action: String)

  var description: String {
    switch self {
    case .noSuchAction(let target, let action):
      "no action '\(action)' on target '\(target)' (see 'apiary inspect' for what exists)"
    }
  }
}
