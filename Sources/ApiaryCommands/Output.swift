import Apiary

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the host writes: results to standard output, logs and errors to standard error.
///
/// Everything the host prints passes through here, and every line is escaped with
/// ``ControlCharacters/escaped(_:)``: text from input or modules (a `%0A` in a URL, a newline in
/// an error) shows as `\n` inside its own line and can never forge a line of its own. Text that
/// is meant to span lines is passed as `lines:`, one element per line.
///
/// ```swift
/// Output.out(result)                    // one line, whatever `result` holds
/// Output.err(lines: usage.lines)        // the host's own multi-line text
/// ```
enum Output {
  static func out(_ line: String) { send([line], to: STDOUT_FILENO) }
  /// Writes a command's one result (`apiary call`); why it could not be written whole (a
  /// closed pipe, a full device), which the command then fails with. Elsewhere (the `run`
  /// prompt, which must go on to shut down cleanly) what cannot be written is dropped.
  static func result(_ line: String) -> String? {
    send([line], to: STDOUT_FILENO).map { String(cString: strerror($0)) }
  }
  static func out(lines: some Sequence<String>) { send(lines, to: STDOUT_FILENO) }
  static func err(_ line: String) { send([line], to: STDERR_FILENO) }
  static func err(lines: some Sequence<String>) { send(lines, to: STDERR_FILENO) }

  /// Writes `text` to standard output as it is, not escaped: generated source code, which is
  /// not host text but the result itself.
  static func raw(_ text: String) { StandardStreams.send(text, to: STDOUT_FILENO) }

  @discardableResult
  private static func send(_ lines: some Sequence<String>, to descriptor: Int32) -> Int32? {
    var text = ""
    for line in lines {
      text += ControlCharacters.escaped(line)
      text += "\n"
    }
    // Whole: no other thread's output lands inside.
    return StandardStreams.send(text, to: descriptor)
  }
}

extension String {
  /// The host's own multi-line text (usage, tables) split for ``Output``.
  var lines: [String] { split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}

/// Exit statuses of the `apiary` executable.
enum ExitStatus {
  static let success: Int32 = 0
  /// Invalid manifests, a failed boot, a refused call, a result `call` could not write, or
  /// `call`/`inspect` stopped by a signal.
  static let failure: Int32 = 1
  /// A command line that does not parse.
  static let usage: Int32 = 2
  /// After SIGINT or SIGTERM, the shutdown did not finish within `--shutdown-timeout`.
  static let shutdownTimedOut: Int32 = 3
  /// A second SIGINT or SIGTERM: exited at once, without finishing the shutdown.
  static let forced: Int32 = 4
}
