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
  static func out(lines: some Sequence<String>) { send(lines, to: STDOUT_FILENO) }
  static func err(_ line: String) { send([line], to: STDERR_FILENO) }
  static func err(lines: some Sequence<String>) { send(lines, to: STDERR_FILENO) }

  /// Writes `text` to standard output as it is, not escaped: generated source code, which is
  /// not host text but the result itself.
  static func raw(_ text: String) { send(text, to: STDOUT_FILENO) }

  private static func send(_ lines: some Sequence<String>, to descriptor: Int32) {
    var text = ""
    for line in lines {
      text += ControlCharacters.escaped(line)
      text += "\n"
    }
    send(text, to: descriptor)
  }

  /// Writes all of `text`, waiting while a non-blocking descriptor (one another process set so)
  /// is full. When the other end is gone (a closed pipe, once the host ignores `SIGPIPE`) or the
  /// device is full, the rest is dropped and the host goes on.
  private static func send(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
      var rest = UnsafeRawBufferPointer(bytes)
      while !rest.isEmpty {
        let written = write(descriptor, rest.baseAddress, rest.count)
        if written < 0, errno == EINTR { continue }
        if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
          var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          _ = poll(&ready, 1, -1)
          continue
        }
        guard written > 0 else { return }
        rest = UnsafeRawBufferPointer(rebasing: rest[written...])
      }
    }
  }
}

extension String {
  /// The host's own multi-line text (usage, tables) split for ``Output``.
  var lines: [String] { split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}

/// Exit statuses of the `apiary` executable.
enum ExitStatus {
  static let success: Int32 = 0
  /// Invalid manifests, a failed boot, a refused call, or `call`/`inspect` stopped by a signal.
  static let failure: Int32 = 1
  /// A command line that does not parse.
  static let usage: Int32 = 2
  /// After SIGINT or SIGTERM, the shutdown did not finish within `--shutdown-timeout`.
  static let shutdownTimedOut: Int32 = 3
  /// A second SIGINT or SIGTERM: exited at once, without finishing the shutdown.
  static let forced: Int32 = 4
}
