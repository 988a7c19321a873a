/// The sample application's log, a service every module resolves from the container.
///
/// ```swift
/// let log = try context.container.resolve((any Logger).self)
/// log.info("started", module: context.name)
/// ```
public protocol Logger: AnyObject, Sendable {
  func log(_ level: LogLevel, _ message: String, module: String)
}

extension Logger {
  public func info(_ message: String, module: String) { log(.info, message, module: module) }
  public func debug(_ message: String, module: String) { log(.debug, message, module: module) }
  public func warning(_ message: String, module: String) { log(.warning, message, module: module) }
}

/// Severity of a log line; lines below the logger's threshold are dropped.
public enum LogLevel: String, Sendable, Comparable, CaseIterable {
  case debug, info, warning, error

  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
    allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
  }
}
