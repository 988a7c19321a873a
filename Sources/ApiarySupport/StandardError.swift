#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lines on the host's standard error: a child's own lines (`[search] …`), what the runtime
/// tells of modules (`apiary: module 'search' crashed: …`), and the commands' logs and errors.
/// Each is one line, with control characters escaped, so text from a module cannot start a
/// line of its own.
///
/// ```swift
/// StandardError.print("apiary: module '\(name)' failed: \(reason)")
/// ```
package enum StandardError {
  /// Writes `line` and a newline.
  package static func print(_ line: String) { print(lines: [line]) }

  /// Writes each of `lines` and a newline, whole: no other thread's text lands between them.
  package static func print(lines: some Sequence<String>) {
    StandardStreams.send(lines: lines, to: STDERR_FILENO)
  }
}
