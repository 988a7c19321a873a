#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How a child process ended, decoded from its `waitpid` status.
///
/// ```swift
/// ChildExit(waitStatus: 3 << 8).description  // "exited with status 3"
/// ChildExit.signaled(11).description         // "killed by signal 11 (SIGSEGV)"
/// ```
package enum ChildExit: Sendable, Hashable, CustomStringConvertible {
  /// The child called `exit` (or returned from `main`) with this status.
  case exited(Int32)
  /// A signal ended the child.
  case signaled(Int32)

  /// Decodes a status from `waitpid` (the `WIFEXITED`/`WTERMSIG` macros, which Swift cannot
  /// import): the low 7 bits are the signal, 0 for a normal exit, whose status is bits 8–15.
  package init(waitStatus status: Int32) {
    let signal = status & 0x7F
    self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
  }

  /// A clean end: status 0. Anything else is a failure for a restart policy of `on-failure`.
  package var isClean: Bool { self == .exited(0) }

  package var description: String {
    switch self {
    case .exited(let status): "exited with status \(status)"
    case .signaled(let signal): "killed by signal \(signal) (\(Self.signalName(signal)))"
    }
  }

  /// `SIGSEGV` for 11; `SIG<n>` for a number without a name here.
  package static func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
      SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL",
      SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
      SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1", SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2",
      SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGSYS: "SIGSYS",
    ]
    return names[signal] ?? "SIG\(signal)"
  }
}
