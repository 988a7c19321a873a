import ApiarySupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What placement needs of a running child process: its pid, the descriptors of its standard
/// input and output, a way to end it, and how it ended. The seam between placement (the wire)
/// and supervision (the child's life).
package protocol PlacedChild: Sendable {
  var pid: Int32 { get }
  /// The write end of the child's standard input.
  var input: Int32 { get }
  /// The read end of the child's standard output.
  var output: Int32 { get }
  /// Asks the child to end (SIGTERM), then kills it after `grace`.
  func terminate(grace: Duration)
  /// How the child ended ("exited with status 3", "killed by signal 11 (SIGSEGV)"), blocking
  /// the calling thread until it has or `timeout` passed (then nil).
  func exitDescription(waitingAtMost timeout: Duration) -> String?
}

extension PlacedChild {
  /// Waits for the child's end, blocking the calling thread; if it has not ended within
  /// `grace`, calls `overdue` and ends it (``terminate(grace:)``, SIGKILL a second after
  /// SIGTERM). Returns how it ended.
  func end(after grace: Duration, overdue: () -> Void = {}) -> String {
    if let ended = exitDescription(waitingAtMost: grace) { return ended }
    overdue()
    terminate(grace: .seconds(1))
    while true {
      if let ended = exitDescription(waitingAtMost: .seconds(1)) { return ended }
    }
  }
}

/// Starts child processes for process-placed modules. The host installs its launcher once;
/// tests may install another.
///
/// ```swift
/// let child = try ChildLauncher.launch(["/usr/bin/python3", "greeter.py"], module: "greeter")
/// ```
package enum ChildLauncher {
  package typealias Launch =
    @Sendable (_ command: [String], _ module: String) throws -> any PlacedChild

  private static let current = Locked<Launch>({ command, module in
    guard let program = command.first else {
      throw ChildSpawnError(executable: "an empty command", step: "posix_spawn", errno: EINVAL)
    }
    return try ChildProcess.spawn(
      executable: program, arguments: Array(command.dropFirst()), name: module)
  })

  /// Starts `command` (an absolute path to a program, then its arguments) for `module`.
  package static func launch(_ command: [String], module: String) throws -> any PlacedChild {
    try current.withLock { $0 }(command, module)
  }

  /// Replaces the launcher.
  package static func install(_ launch: @escaping Launch) {
    current.withLock { $0 = launch }
  }
}
