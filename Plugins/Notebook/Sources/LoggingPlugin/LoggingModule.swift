import Apiary
import NotebookKit

/// The `logging` module: provides the `Logger` service (declared in its manifest), sets its
/// threshold from config, and installs a mediator interceptor that logs every call and counts it
/// for `diagnostics/metrics`.
final class LoggingModule: Module {
  init() {}

  func setUp(_ context: ModuleContext) throws {
    let logger = try context.container.resolve((any Logger).self)
    let level = try context.config.string("level", default: "info")
    if let threshold = LogLevel(rawValue: level), let console = logger as? ConsoleLogger {
      console.setThreshold(threshold)
    }
    let metrics = CallMetrics()
    try context.container.register(CallMetrics.self, scope: .singleton) { _ in metrics }
    context.mediator.intercept(
      .global,
      .after { call, outcome in
        let key = "\(call.target).\(call.action)"
        switch outcome {
        case .success:
          metrics.record(key, failed: false)
          logger.debug("call \(key) ok", module: "mediator")
        case .failure(let error):
          metrics.record(key, failed: true)
          logger.warning("call \(key) failed: \(error)", module: "mediator")
        }
      })
  }
}
