import ApiarySupport
import Dispatch

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A child process with pipes for its standard input, output and error, started with
/// `posix_spawn` (no Swift code runs between fork and exec).
///
/// - The child gets descriptors 0, 1 and 2 (the pipes) and 3 (the ``Lifeline``), nothing else:
///   every other descriptor is closed in the child, also ones plugin code opened without
///   close-on-exec.
/// - It runs in its own process group, so a Ctrl-C at the terminal reaches only the host, which
///   tears children down in order; every signal starts at its default action, none blocked,
///   whatever the host ignores (`SIGPIPE`) or blocks.
/// - A thread reads its standard error line by line and hands each line, tagged with ``name``
///   (`[notes] message`), to a handler.
/// - What it starts in its process group ends with it (SIGKILL to the group once it exited).
/// - A thread waits for its exit with `waitid(P_PID, pid)`, so it never reaps another child's
///   status and never blocks a Swift concurrency thread. It looks first without reaping
///   (`WNOWAIT`), then reaps under the same lock ``send(_:)`` takes, so a signal never reaches a
///   process that reused the pid. Callers await the exit (``exit()``) or block their own thread
///   for it, bounded (``exit(waitingAtMost:)``).
///
/// The object closes ``output`` when it is released: keep a reference while reading it.
/// ``input`` belongs to its writer, which closes it once (``closeInput()``, or a wire
/// connection's own close).
///
/// ```swift
/// let child = try ChildProcess.spawn(executable: "/bin/sh", arguments: ["-c", "exit 3"])
/// let end = await child.exit()  // .exited(3), "exited with status 3"
/// ```
package final class ChildProcess: Sendable {
  /// The name standard error lines are tagged with.
  package let name: String
  package let pid: Int32
  /// The write end of the child's standard input.
  package let input: Int32
  /// The read end of the child's standard output.
  package let output: Int32
  private let state = Locked(State())

  private struct State {
    var exit: ChildExit?
    /// What runs on the reaper thread once the child has ended.
    var waiters: [@Sendable (ChildExit) -> Void] = []
    var isInputOpen = true
  }

  private init(name: String, pid: Int32, input: Int32, output: Int32) {
    self.name = name
    self.pid = pid
    self.input = input
    self.output = output
  }

  deinit {
    close(output)
  }

  /// Starts `executable` (a path, or a name looked up in `PATH`) with `arguments`, the host's
  /// environment plus `environment` (``ChildEnvironment``), and the read end of `lifeline` (the
  /// host's ``Lifeline``; tests pass their own). Each line the child writes to standard error goes to
  /// `standardError` as `[name] line`.
  package static func spawn(
    executable: String,
    arguments: [String],
    name: String? = nil,
    environment: [String: String] = [:],
    lifeline: Int32? = Lifeline.host?.read,
    standardError: @escaping @Sendable (String) -> Void = StandardError.print
  ) throws(ChildSpawnError) -> ChildProcess {
    _ = ignoreBrokenPipes
    func failure(_ step: String, _ code: Int32 = errno) -> ChildSpawnError {
      ChildSpawnError(executable: executable, step: step, errno: code)
    }
    guard let stdin = GNUFunctions.closeOnExecPipe() else { throw failure("pipe2") }
    guard let stdout = GNUFunctions.closeOnExecPipe() else {
      closeAll(stdin.read, stdin.write)
      throw failure("pipe2")
    }
    guard let stderr = GNUFunctions.closeOnExecPipe() else {
      closeAll(stdin.read, stdin.write, stdout.read, stdout.write)
      throw failure("pipe2")
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
    posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
    posix_spawn_file_actions_adddup2(&actions, stderr.write, 2)
    var variables = ChildEnvironment.variables(
      host: ProcessInfo.processInfo.environment, adding: environment)
    var firstToClose = Lifeline.childDescriptor
    if let lifeline {
      posix_spawn_file_actions_adddup2(&actions, lifeline, Lifeline.childDescriptor)
      variables[Lifeline.environmentKey] = String(Lifeline.childDescriptor)
      firstToClose += 1
    }
    if let closeFrom = GNUFunctions.closeFrom { _ = closeFrom(&actions, firstToClose) }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = sigset_t()
    sigfillset(&defaults)
    sigdelset(&defaults, SIGKILL)
    sigdelset(&defaults, SIGSTOP)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
    closeAll(stdin.read, stdout.write, stderr.write)
    guard result == 0 else {
      closeAll(stdin.write, stdout.read, stderr.read)
      throw failure("posix_spawn", result)
    }
    let tag = name ?? String(executable.split(separator: "/").last ?? Substring(executable))
    let child = ChildProcess(name: tag, pid: pid, input: stdin.write, output: stdout.read)
    unreaped.withLock { $0[pid] = tag }
    LineReader.start(descriptor: stderr.read, threadName: "apiary-stderr-\(pid)") { line in
      standardError("[\(tag)] \(line)")
    }
    DetachedThread.start(name: "apiary-reap-\(pid)") { child.reap() }
    return child
  }

  /// The host ignores `SIGPIPE` once it has children: a write to a dead child's input then
  /// fails with `EPIPE` instead of killing the host.
  private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

  private static func closeAll(_ descriptors: Int32...) {
    for descriptor in descriptors { close(descriptor) }
  }

  // MARK: Exit

  /// How the child ended; waits until it has.
  package func exit() async -> ChildExit {
    await withCheckedContinuation { continuation in
      whenEnded { continuation.resume(returning: $0) }
    }
  }

  /// How the child ended, blocking the calling thread until it has or `timeout` passed (then
  /// nil). For a thread of its own, never one of Swift's pool.
  package func exit(waitingAtMost timeout: Duration) -> ChildExit? {
    let semaphore = DispatchSemaphore(value: 0)
    whenEnded { _ in semaphore.signal() }
    _ = semaphore.wait(timeout: .now() + timeout.inSeconds)
    return exitIfEnded
  }

  /// Runs `body` with how the child ended: at once if it has, else on the reaper thread.
  private func whenEnded(_ body: @escaping @Sendable (ChildExit) -> Void) {
    let known = state.withLock { state in
      if state.exit == nil { state.waiters.append(body) }
      return state.exit
    }
    if let known { body(known) }
  }

  /// How the child ended, or nil while it runs.
  package var exitIfEnded: ChildExit? { state.withLock { $0.exit } }

  /// Sends `signal` to the child's process group (the child and anything it started); false if
  /// the child has already ended.
  @discardableResult
  package func send(_ signal: Int32) -> Bool {
    state.withLock { state in
      guard state.exit == nil else { return false }
      if kill(-pid, signal) != 0 { kill(pid, signal) }
      return true
    }
  }

  /// Asks the child to end with `SIGTERM`, sends `SIGKILL` if it has not ended `grace` later,
  /// and returns how it ended.
  @discardableResult
  package func terminate(grace: Duration) async -> ChildExit {
    if send(SIGTERM) { killAfter(grace) }
    return await exit()
  }

  /// Sends `SIGKILL` `grace` from now unless the child has ended by then. It comes from the
  /// deadlines' queue (``Deadlines``), which has a thread outside Swift's pool: on time also
  /// while synchronous callers hold every thread of the pool.
  func killAfter(_ grace: Duration) {
    let token = Deadlines.shared.schedule(after: grace.inSeconds) { [self] in send(SIGKILL) }
    whenEnded { _ in Deadlines.shared.cancel(token) }
  }

  /// Closes ``input``, so the child reads end-of-file; closing twice does nothing.
  package func closeInput() {
    let wasOpen = state.withLock { state in
      defer { state.isInputOpen = false }
      return state.isInputOpen
    }
    if wasOpen { close(input) }
  }

  // MARK: Children left at exit

  /// The children not reaped yet, by pid, with their names: a pid stays here until just before
  /// it is reaped, so it never names another process.
  private static let unreaped = Locked<[Int32: String]>([:])

  /// Kills (SIGKILL, their whole process groups) the children still running, which no module
  /// ends any more (a hook the host gave up on is stuck in them), so none outlives the host;
  /// returns their names and pids. For the host's last step.
  package static func killRemaining() -> [(name: String, pid: Int32)] {
    unreaped.withLock { children in
      for pid in children.keys where kill(-pid, SIGKILL) != 0 { kill(pid, SIGKILL) }
      return children.map { (name: $0.value, pid: $0.key) }.sorted { $0.pid < $1.pid }
    }
  }

  /// Runs on the reaper thread: waits for the exit without reaping, then reaps under the lock.
  private func reap() {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
    // What the child started in its process group ends with it. Not reaped yet, the child
    // still holds its pid, so the group's number names no other group.
    kill(-pid, SIGKILL)
    Self.unreaped.withLock { _ = $0.removeValue(forKey: pid) }
    let (end, waiters) = state.withLock { state in
      var status: Int32 = 0
      var result: pid_t
      repeat { result = waitpid(pid, &status, 0) } while result < 0 && errno == EINTR
      // ECHILD: code elsewhere in the host reaped it with `waitpid(-1)` and the status is lost;
      // the child is gone either way, reported as killed.
      let end = result == pid ? ChildExit(waitStatus: status) : .signaled(SIGKILL)
      state.exit = end
      defer { state.waiters = [] }
      return (end, state.waiters)
    }
    for waiter in waiters { waiter(end) }
  }
}
