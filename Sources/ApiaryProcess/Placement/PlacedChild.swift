import ApiarySupport
import Foundation

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
  /// Waits for the child's end: "exited with status 3", "killed by signal 11 (SIGSEGV)".
  func exitDescription() async -> String
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

  private static let current = Locked<Launch>({ command, _ in try SpawnedChild.spawn(command) })

  /// Starts `command` (an absolute path to a program, then its arguments) for `module`.
  package static func launch(_ command: [String], module: String) throws -> any PlacedChild {
    try current.withLock { $0 }(command, module)
  }

  /// Replaces the launcher.
  package static func install(_ launch: @escaping Launch) {
    current.withLock { $0 = launch }
  }
}

/// A child started with `posix_spawn`, its standard input and output on pipes, its standard
/// error shared with the host. A stand-in until supervision's `ChildProcess` takes over.
final class SpawnedChild: PlacedChild {
  let pid: Int32
  let input: Int32
  let output: Int32
  private let ended = Locked<(description: String?, waiters: [CheckedContinuation<String, Never>])>(
    (nil, []))

  private init(pid: Int32, input: Int32, output: Int32) {
    self.pid = pid
    self.input = input
    self.output = output
  }

  static func spawn(_ command: [String]) throws(SpawnError) -> SpawnedChild {
    guard let program = command.first else { throw SpawnError(command: command, code: EINVAL) }
    var toChild: [Int32] = [0, 0]
    var fromChild: [Int32] = [0, 0]
    guard pipe(&toChild) == 0 else { throw SpawnError(command: command, code: errno) }
    guard pipe(&fromChild) == 0 else { throw SpawnError(command: command, code: errno) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
    for descriptor in toChild + fromChild {
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }
    var arguments: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
    defer { for argument in arguments { free(argument) } }
    // The child starts with no signal blocked and every signal at its default action, whatever
    // the host's threads block or ignore (the host ignores SIGPIPE).
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    sigdelset(&all, SIGKILL)
    sigdelset(&all, SIGSTOP)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let status = posix_spawnp(&pid, program, &actions, &attributes, &arguments, environ)
    close(toChild[0])
    close(fromChild[1])
    guard status == 0 else {
      close(toChild[1])
      close(fromChild[0])
      throw SpawnError(command: command, code: status)
    }
    _ = fcntl(toChild[1], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fromChild[0], F_SETFD, FD_CLOEXEC)
    let child = SpawnedChild(pid: pid, input: toChild[1], output: fromChild[0])
    child.reap()
    return child
  }

  func terminate(grace: Duration) {
    guard ended.withLock({ $0.description == nil }) else { return }
    kill(pid, SIGTERM)
    let pid = self.pid
    Task {
      try? await Task.sleep(for: grace)
      if ended.withLock({ $0.description == nil }) { kill(pid, SIGKILL) }
    }
  }

  func exitDescription() async -> String {
    await withCheckedContinuation { continuation in
      let known = ended.withLock { state -> String? in
        if state.description == nil { state.waiters.append(continuation) }
        return state.description
      }
      if let known { continuation.resume(returning: known) }
    }
  }

  /// Waits for the child on a thread of its own and records how it ended.
  private func reap() {
    let pid = self.pid
    let thread = Thread { [self] in
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0, errno == EINTR {}
      let description = Self.describe(status)
      let waiters = ended.withLock { state in
        state.description = description
        defer { state.waiters = [] }
        return state.waiters
      }
      for waiter in waiters { waiter.resume(returning: description) }
    }
    thread.start()
  }

  static func describe(_ status: Int32) -> String {
    let signal = status & 0x7f
    guard signal != 0 else { return "exited with status \((status >> 8) & 0xff)" }
    let names: [Int32: String] = [
      SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL",
      SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
      SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM",
    ]
    return "killed by signal \(signal) (\(names[signal] ?? "unknown"))"
  }
}

/// A child process could not be started.
struct SpawnError: Error, CustomStringConvertible {
  let command: [String]
  let code: Int32
  var description: String {
    "cannot start \(command.joined(separator: " ")): \(String(cString: strerror(code)))"
  }
}
