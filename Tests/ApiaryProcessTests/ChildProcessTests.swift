import ApiarySupport
import Foundation
import Testing

@testable import ApiaryProcess

#if canImport(Glibc)
  import Glibc
#endif

/// Real children started with `/bin/sh`: exits, signals, pipes, standard error, descriptors.
@Suite struct ChildProcessTests {
  static func shell(_ script: String, name: String = "child", lines: Locked<[String]>? = nil)
    throws -> ChildProcess
  {
    try ChildProcess.spawn(
      executable: "/bin/sh", arguments: ["-c", script], name: name,
      standardError: { line in lines?.withLock { $0.append(line) } })
  }

  @Test func exitStatusIsReported() async throws {
    let child = try Self.shell("exit 3")
    let exit = await child.exit()
    #expect(exit == .exited(3))
    #expect(exit.description == "exited with status 3")
    #expect(!exit.isClean)
  }

  /// The blocking wait gives up after its bound while the child runs, and returns how it ended
  /// once it has (the end arriving while it waits, then already known).
  @Test func aBlockingWaitIsBoundedAndSeesTheExit() throws {
    let child = try Self.shell("read line; exit 4")
    #expect(child.exit(waitingAtMost: .milliseconds(10)) == nil)
    child.closeInput()
    #expect(child.exit(waitingAtMost: .seconds(600)) == .exited(4))
    #expect(child.exit(waitingAtMost: .zero) == .exited(4))
    #expect(child.exitDescription(waitingAtMost: .zero) == "exited with status 4")
  }

  @Test func signalIsReportedByName() async throws {
    let child = try Self.shell("kill -SEGV $$")
    let exit = await child.exit()
    #expect(exit == .signaled(SIGSEGV))
    #expect(exit.description == "killed by signal 11 (SIGSEGV)")
  }

  /// Each reaper waits for its own pid: two children ending together keep their own statuses,
  /// and a child the host spawns elsewhere (Foundation's `Process`) keeps its status too.
  @Test func reapingNeverTakesAnotherChildsStatus() async throws {
    let first = try Self.shell("exit 4")
    let second = try Self.shell("exit 5")
    let other = Process()
    other.executableURL = URL(fileURLWithPath: "/bin/sh")
    other.arguments = ["-c", "exit 6"]
    try other.run()
    other.waitUntilExit()
    #expect(await first.exit() == .exited(4))
    #expect(await second.exit() == .exited(5))
    #expect(other.terminationStatus == 6)
  }

  @Test func inputAndOutputArePipes() async throws {
    let child = try Self.shell("read line; echo \"got $line\"")
    let text = "hello\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(child.input, $0.baseAddress, 6) }
    var buffer = [UInt8](repeating: 0, count: 64)
    var received: [UInt8] = []
    while !received.contains(UInt8(ascii: "\n")) {
      let count = buffer.withUnsafeMutableBytes { read(child.output, $0.baseAddress, 64) }
      guard count > 0 else { break }
      received += buffer[0..<count]
    }
    #expect(String(decoding: received, as: UTF8.self) == "got hello\n")
    #expect(await child.exit() == .exited(0))
  }

  /// Closing the input is end-of-file for the child: a clean way to ask it to leave.
  @Test func closingInputEndsAReader() async throws {
    let child = try Self.shell("while read line; do :; done; exit 7")
    child.closeInput()
    child.closeInput()
    #expect(await child.exit() == .exited(7))
  }

  @Test func standardErrorLinesAreTaggedWithTheName() async throws {
    let lines = Locked<[String]>([])
    let child = try Self.shell(
      "echo one >&2; printf 'two\\nthree' >&2; exec 2>&-; exit 0", name: "notes", lines: lines)
    #expect(await child.exit() == .exited(0))
    // The reader thread may still be handing lines over: wait for the last one, bounded.
    for _ in 0..<10_000 where lines.withLock({ $0.count }) < 3 { await Task.yield() }
    #expect(lines.withLock { $0 } == ["[notes] one", "[notes] two", "[notes] three"])
  }

  /// A child that writes without newlines (a progress bar, a binary dump) is shown in tagged
  /// pieces of at most `LineReader.longestLine` bytes, nothing lost: before, the host kept the
  /// whole unfinished line and searched all of it for a newline after each read of 4 KiB,
  /// memory without bound and time growing with the square of the line (seconds of CPU for
  /// tens of megabytes).
  @Test func aLineWithoutEndIsShownInBoundedPieces() async throws {
    let lines = Locked<[String]>([])
    let child = try Self.shell(
      "head -c 1000000 /dev/zero | tr '\\0' z >&2; echo end >&2; exec 2>&-; exit 0",
      name: "dump", lines: lines)
    #expect(await child.exit() == .exited(0))
    let text = String(repeating: "z", count: 1_000_000) + "end"
    for _ in 0..<100_000 where lines.withLock({ $0.last?.hasSuffix("end") }) != true {
      await Task.yield()
    }
    let shown = lines.withLock { $0 }
    #expect(shown.count == (text.utf8.count + LineReader.longestLine - 1) / LineReader.longestLine)
    #expect(shown.allSatisfy { $0.hasPrefix("[dump] ") })
    #expect(shown.allSatisfy { $0.utf8.count <= "[dump] ".utf8.count + LineReader.longestLine })
    let putTogether = shown.map { $0.dropFirst(7) }.joined() == text  // not printed: 1 MB
    #expect(putTogether)
  }

  /// What a child started in its process group (`sleep 300 &` in a shell, a worker a Python
  /// module spawned) ends with it: it outlived the child, and the host, when the child ended on
  /// its own (the host signals the group only when it ends the child).
  @Test func whatAChildStartedEndsWithIt() async throws {
    let lines = Locked<[String]>([])
    let child = try Self.shell("sleep 300 & echo $! >&2; exit 0", name: "leaver", lines: lines)
    #expect(await child.exit() == .exited(0))
    for _ in 0..<10_000 where lines.withLock({ $0.isEmpty }) { await Task.yield() }
    let pid = try #require(lines.withLock { $0.first }.flatMap { Int32($0.dropFirst(9)) })
    // Gone, or a zombie waiting for whoever reaps orphans here.
    func running() -> Bool {
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
        return false
      }
      return !stat.contains(") Z ")
    }
    for _ in 0..<500 where running() { try await Task.sleep(for: .milliseconds(10)) }
    #expect(!running(), "sleep \(pid) outlived the child that started it")
    if running() { kill(pid, SIGKILL) }
  }

  /// SIGTERM first; a child that ignores it gets SIGKILL after the grace period.
  @Test func terminateEscalatesToKill() async throws {
    let child = try Self.shell("trap '' TERM; echo ready; while :; do read x; done")
    var byte: UInt8 = 0
    #expect(read(child.output, &byte, 1) == 1)  // the trap is in place
    let exit = await child.terminate(grace: .milliseconds(50))
    #expect(exit == .signaled(SIGKILL))
    #expect(!child.send(SIGTERM))
  }

  /// The SIGKILL after the grace period comes on time while synchronous work holds every
  /// thread of Swift's pool, where no task could run to send it. It needs every thread of the
  /// pool: it runs alone, in a test process of its own.
  @Test func terminateKillsOnTimeWhileThePoolIsHeld() async throws {
    guard AloneTestProcess.isAlone else {
      return try await AloneTestProcess.run(
        "ChildProcessTests/terminateKillsOnTimeWhileThePoolIsHeld")
    }
    let child = try Self.shell("trap '' TERM; echo ready; while :; do read x; done")
    var byte: UInt8 = 0
    #expect(read(child.output, &byte, 1) == 1)  // the trap is in place
    let pool = ProcessInfo.processInfo.activeProcessorCount
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    // From a thread of its own: this test's task gives its thread of the pool back meanwhile.
    let (held, exit) = await withCheckedContinuation { continuation in
      Thread {
        for _ in 0..<pool {
          Task.detached {
            holding.signal()
            release.wait()
          }
        }
        let deadline = DispatchTime.now() + 30
        let held = (0..<pool).allSatisfy { _ in holding.wait(timeout: deadline) == .success }
        (child as any PlacedChild).terminate(grace: .milliseconds(50))
        let exit = child.exit(waitingAtMost: .seconds(30))
        for _ in 0..<pool { release.signal() }
        continuation.resume(returning: (held, exit))
      }.start()
    }
    #expect(held, "every thread of the pool is held")
    #expect(exit == .signaled(SIGKILL))
  }

  @Test func terminateEndsAPoliteChildWithSIGTERM() async throws {
    let child = try Self.shell("read x")
    #expect(await child.terminate(grace: .seconds(3600)) == .signaled(SIGTERM))
  }

  /// The child has 0, 1, 2 and the lifeline as 3, and none of the host's other descriptors,
  /// not even one opened without close-on-exec.
  @Test func childInheritsOnlyItsPipesAndTheLifeline() async throws {
    // Two descriptors without close-on-exec, numbered above what `ls` opens in the child (the
    // lowest free number may be 3 when Dispatch has not opened its own yet); `F_DUPFD` takes a
    // free number, so no other test's descriptor is touched.
    let opened = open("/dev/null", O_RDONLY)
    let leaked = fcntl(opened, F_DUPFD, 10)
    let high = fcntl(opened, F_DUPFD, 100)
    close(opened)
    defer {
      close(leaked)
      close(high)
    }
    #expect(leaked >= 10 && high >= 100)
    let child = try Self.shell("echo $\(Lifeline.environmentKey); exec ls /proc/self/fd")
    let output = readAll(child.output)
    #expect(await child.exit() == .exited(0))
    let lines = output.split(separator: "\n").map(String.init)
    #expect(lines.first == "3")
    let descriptors = Set(lines.dropFirst().compactMap { Int($0) })
    #expect(descriptors.isSuperset(of: [0, 1, 2, 3]))
    #expect(!descriptors.contains(Int(high)))
    #expect(!descriptors.contains(Int(leaked)))
  }

  /// The lifeline's read end reaches the child and its write end stays in the host only: the
  /// child reads end-of-file exactly when the write end closes. A private pipe stands in for
  /// the host's, which stays open while the test process lives (`SupervisionHostTests` kills a
  /// real host).
  @Test func lifelineEndsWhenItsWriteEndCloses() async throws {
    let lifeline = try #require(GNUFunctions.closeOnExecPipe())
    let child = try ChildProcess.spawn(
      executable: "/bin/sh", arguments: ["-c", "echo reading; cat <&3 >/dev/null; exit 9"],
      lifeline: lifeline.read)
    close(lifeline.read)
    var byte: UInt8 = 0
    #expect(read(child.output, &byte, 1) == 1)
    #expect(child.exitIfEnded == nil)
    close(lifeline.write)
    #expect(await child.exit() == .exited(9))
  }

  @Test func missingExecutableIsATypedError() {
    #expect(throws: ChildSpawnError.self) {
      try ChildProcess.spawn(executable: "/no/such/apiary-child", arguments: [])
    }
  }

  func readAll(_ descriptor: Int32) -> String {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var received: [UInt8] = []
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      received += buffer[0..<count]
    }
    return String(decoding: received, as: UTF8.self)
  }
}
