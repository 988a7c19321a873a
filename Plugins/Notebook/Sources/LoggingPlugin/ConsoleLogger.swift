import Apiary
import NotebookKit
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes log lines to standard error, one line per entry. Bound to `NotebookKit.Logger` by the `logging` module's
/// manifest `services` entry, so the container creates it by name.
final class ConsoleLogger: Logger, Injectable {
  private let threshold = Mutex(LogLevel.info)

  init(resolver: Resolver) throws {}

  /// Lines below `level` are dropped.
  func setThreshold(_ level: LogLevel) { threshold.withLock { $0 = level } }

  func log(_ level: LogLevel, _ message: String, module: String) {
    guard level >= threshold.withLock({ $0 }) else { return }
    // One line per entry, whatever the message holds: control characters are escaped, so text
    // from a URL or a module cannot start a fake log line.
    let line = ControlCharacters.escaped("[\(level.rawValue)] \(module): \(message)")
    // One `write`, and never a trap: a closed pipe drops the line.
    var text = line + "\n"
    text.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
  }
}
