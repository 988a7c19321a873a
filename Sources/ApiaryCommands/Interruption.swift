import ApiarySupport
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT and SIGTERM for the commands that run module code (`run`, `call`, `inspect`).
///
/// The first signal starts a graceful shutdown: the command stops waiting for what it was doing
/// (see ``unlessInterrupted(_:)``) and shuts the kernel down, and if the process is still alive
/// `deadline` later it exits with ``ExitStatus/shutdownTimedOut``. A second signal exits at once
/// with ``ExitStatus/forced``. Either way the children of process-placed modules still running
/// are killed first, so none outlives the host, also one that does not watch its lifeline.
///
/// None of this needs a Swift concurrency thread, so module code that blocks all of them cannot
/// keep the host alive: the signal handler only counts and writes one byte to a pipe — all
/// async-signal-safe; a dedicated thread, which never runs the handler, reads the pipe,
/// announces the shutdown, keeps the deadline, and on the second byte kills the children and
/// exits. Should that thread not have exited a second after the second signal, the handler
/// exits itself.
///
/// ```swift
/// let interruption = Interruption.install(deadline: 30)
/// guard let status = await interruption.unlessInterrupted({ await serve() }) else {
///   await kernel.shutdown()  // a signal came first; `serve` is abandoned
///   return ExitStatus.success
/// }
/// ```
final class Interruption: Sendable {
  /// The seconds a graceful shutdown may take after the first signal.
  let deadline: Double
  private let state = Mutex(State())

  private struct State {
    var signal: Int32?
    /// A handful at a time. A list, not a dictionary: the first dictionary of a key type costs
    /// a search of every conformance in the process (BENCHMARKS.md, "Start of an `apiary`
    /// command").
    var waiters: [(id: Int, action: @Sendable () -> Void)] = []
    var nextWaiter = 0
  }

  private init(deadline: Double) { self.deadline = deadline }

  /// Installs the handlers for SIGINT and SIGTERM, and ignores SIGPIPE; call once per process.
  static func install(deadline: Double) -> Interruption {
    let interruption = Interruption(deadline: deadline)
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      StandardError.print("warning: no pipe for signals; SIGINT and SIGTERM end the host at once")
      return interruption
    }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    // Touch the handler's state here, so the handler never runs a lazy initialiser.
    SignalHandlerState.pipeWriteEnd.store(ends[1], ordering: .sequentiallyConsistent)
    SignalHandlerState.forcedStatus.store(ExitStatus.forced, ordering: .sequentiallyConsistent)
    SignalHandlerState.received.store(0, ordering: .sequentiallyConsistent)
    let readEnd = ends[0]
    DetachedThread.start(name: "apiary-signals") {
      // The handler never runs here, so a second signal's wait in it cannot hold this thread.
      var signals = sigset_t()
      sigemptyset(&signals)
      sigaddset(&signals, SIGINT)
      sigaddset(&signals, SIGTERM)
      pthread_sigmask(SIG_BLOCK, &signals, nil)
      interruption.watch(readEnd: readEnd)
    }
    // `signal` installs the handler with SA_RESTART (BSD semantics on glibc and Darwin), so a
    // read of standard input on another thread is resumed, not ended, by a signal.
    _ = signal(SIGINT, handleTerminationSignal)
    _ = signal(SIGTERM, handleTerminationSignal)
    // A reader that closed standard output (`apiary run | head -1`) does not end the host
    // before its modules are torn down: what cannot be written is dropped (`StandardStreams`).
    _ = signal(SIGPIPE, SIG_IGN)
    return interruption
  }

  /// Runs `operation` and returns its value, or returns nil as soon as a signal arrives (or at
  /// once, without starting it, if one already has). An interrupted operation is cancelled and
  /// abandoned: code that ignores cancellation may keep running until the process exits.
  func unlessInterrupted<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async -> T? {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
      let run = InterruptibleRun(continuation)
      guard let waiter = whenInterrupted({ run.interrupt() }) else {
        run.interrupt()
        return
      }
      run.started(
        Task {
          let value = await operation()
          self.state.withLock { $0.waiters.removeAll { $0.id == waiter } }
          run.finish(value)
        })
    }
  }

  /// Registers `action` for the first signal; nil (and `action` not kept) when it already came.
  private func whenInterrupted(_ action: @escaping @Sendable () -> Void) -> Int? {
    state.withLock { state in
      guard state.signal == nil else { return nil }
      state.nextWaiter += 1
      state.waiters.append((state.nextWaiter, action))
      return state.nextWaiter
    }
  }

  /// The watcher thread: waits for the first signal, starts the shutdown, keeps the deadline,
  /// and meanwhile ends the process at a second signal.
  private func watch(readEnd: Int32) {
    var byte: UInt8 = 0
    while read(readEnd, &byte, 1) != 1 {
      guard errno == EINTR else { return }
    }
    let number = Int32(byte)
    tell("signal \(number): shutting down (at most \(deadline) s; send it again to exit at once)")
    let waiters = state.withLock { state in
      state.signal = number
      defer { state.waiters = [] }
      return state.waiters.map { $0.action }
    }
    for waiter in waiters { waiter() }
    let clock = ContinuousClock()
    let end = clock.now + .seconds(deadline)
    while clock.now < end {
      let left = (end - clock.now).components
      let milliseconds = left.seconds * 1_000 + left.attoseconds / 1_000_000_000_000_000 + 1
      var second = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
      if poll(&second, 1, Int32(clamping: milliseconds)) == 1, read(readEnd, &byte, 1) == 1 {
        tell("second signal: exiting at once")
        Host.killRemainingChildren()
        _exit(ExitStatus.forced)
      }
    }
    tell("error: shutdown did not finish within \(deadline) s (--shutdown-timeout); exiting")
    Host.killRemainingChildren()
    _exit(ExitStatus.shutdownTimedOut)
  }

  /// Writes one line of the host's own text to standard error, unless that could block: a full
  /// pipe nobody reads must not keep the watcher from keeping the deadline.
  private func tell(_ line: String) {
    Array((line + "\n").utf8).withUnsafeBytes { writeToStandardErrorUnlessFull($0) }
  }
}

/// One ``Interruption/unlessInterrupted(_:)`` call: resumes its caller exactly once, with the
/// operation's value or with nil, and cancels the operation when the signal comes first.
private final class InterruptibleRun<T: Sendable>: Sendable {
  private struct State {
    var caller: CheckedContinuation<T?, Never>?
    var task: Task<Void, Never>?
  }
  private let state: Mutex<State>

  init(_ caller: CheckedContinuation<T?, Never>) { state = Mutex(State(caller: caller)) }

  func started(_ task: Task<Void, Never>) {
    let interrupted = state.withLock { state in
      state.task = task
      return state.caller == nil
    }
    if interrupted { task.cancel() }
  }

  func finish(_ value: T) {
    state.withLock { $0.caller.take() }?.resume(returning: value)
  }

  func interrupt() {
    let (caller, task) = state.withLock { ($0.caller.take(), $0.task) }
    task?.cancel()
    caller?.resume(returning: nil)
  }
}

/// What the signal handler reads and writes. ``Interruption/install(deadline:)`` sets every
/// value before installing the handler, so in the handler each lazy static is already
/// initialised (its once-check is one load, no lock) and only atomics are touched.
private enum SignalHandlerState {
  static let received = Atomic<Int>(0)
  static let pipeWriteEnd = Atomic<Int32>(-1)
  static let forcedStatus = Atomic<Int32>(1)
}

/// The SIGINT/SIGTERM handler. Async-signal-safe: atomics, `poll`, `write` and `_exit` only.
private func handleTerminationSignal(_ number: Int32) {
  let savedErrno = errno
  defer { errno = savedErrno }
  var byte = UInt8(truncatingIfNeeded: number)
  _ = write(SignalHandlerState.pipeWriteEnd.load(ordering: .sequentiallyConsistent), &byte, 1)
  if SignalHandlerState.received.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
    // The watcher thread kills the children and exits; this is the way out should it not.
    _ = poll(nil, 0, 1_000)
    let message: StaticString = "second signal: exiting at once\n"
    writeToStandardErrorUnlessFull(
      UnsafeRawBufferPointer(start: message.utf8Start, count: message.utf8CodeUnitCount))
    _exit(SignalHandlerState.forcedStatus.load(ordering: .sequentiallyConsistent))
  }
}

/// Writes `bytes` (a short message) to standard error only when `poll` says that will not block,
/// so exiting never waits on a reader of standard error. Async-signal-safe: `poll` and `write`.
private func writeToStandardErrorUnlessFull(_ bytes: UnsafeRawBufferPointer) {
  var ready = pollfd(fd: STDERR_FILENO, events: Int16(POLLOUT), revents: 0)
  guard poll(&ready, 1, 0) == 1 else { return }
  _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count)
}
