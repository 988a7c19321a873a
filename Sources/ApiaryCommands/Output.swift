import Apiary

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the host writes a command's result: standard output. Logs and errors go to standard
/// error through ``StandardError``.
///
/// Every line is escaped with ``ControlCharacters/escaped(_:)``: text from input or modules (a
/// `%0A` in a URL, a newline in an error) shows as `\n` inside its own line and can never forge
/// a line of its own. Text that is meant to span lines is passed as `lines:`, one element per
/// line.
///
/// ```swift
/// Output.out(result)                    // one line, whatever `result` holds
/// Output.out(lines: usage.lines)        // the host's own multi-line text
/// ```
enum Output {
  /// Writes a line of the command's result. What cannot be written (a closed pipe, a full
  /// device) is remembered: ``Host/main(_:)`` then fails the command with ``unwritten``.
  static func out(_ line: String) { out(lines: [line]) }
  static func out(lines: some Sequence<String>) {
    remember(StandardStreams.send(lines: lines, to: STDOUT_FILENO))
  }
  /// Writes `run`'s replies to its input; what cannot be written is dropped, so the session
  /// goes on and shuts down cleanly (`apiary run | head -1`).
  static func reply(lines: some Sequence<String>) {
    StandardStreams.send(lines: lines, to: STDOUT_FILENO)
  }

  /// Writes `text` to standard output as it is, not escaped: generated source code, which is
  /// not host text but the result itself.
  static func raw(_ text: String) { remember(StandardStreams.send(text, to: STDOUT_FILENO)) }

  /// Why part of the result could not be written (the first failure), or nil.
  static var unwritten: String? {
    firstFailure.withLock { $0 }.map { String(cString: strerror($0)) }
  }

  private static let firstFailure = Locked<Int32?>(nil)

  private static func remember(_ failure: Int32?) {
    guard let failure else { return }
    firstFailure.withLock { $0 = $0 ?? failure }
  }
}

extension String {
  /// The host's own multi-line text (usage, tables) split for ``Output``.
  var lines: [String] { split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}

/// Exit statuses of the `apiary` executable.
enum ExitStatus {
  static let success: Int32 = 0
  /// Invalid manifests, a failed boot, a refused call, a result that could not be written,
  /// or `call`/`inspect` stopped by a signal.
  static let failure: Int32 = 1
  /// A command line that does not parse.
  static let usage: Int32 = 2
  /// After SIGINT or SIGTERM, the shutdown did not finish within `--shutdown-timeout`.
  static let shutdownTimedOut: Int32 = 3
  /// A second SIGINT or SIGTERM: exited at once, without finishing the shutdown.
  static let forced: Int32 = 4
}
