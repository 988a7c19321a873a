#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The runtime's lines on the host's standard error: a child's own lines (`[search] …`) and what
/// the runtime tells of modules (`apiary: module 'search' crashed: …`). Each is one line, with
/// control characters escaped, so text from a module cannot start a line of its own.
///
/// ```swift
/// StandardError.print("apiary: module '\(name)' failed: \(reason)")
/// ```
package enum StandardError {
  /// Writes `line` and a newline.
  package static func print(_ line: String) {
    StandardStreams.send(ControlCharacters.escaped(line) + "\n", to: STDERR_FILENO)
  }
}
