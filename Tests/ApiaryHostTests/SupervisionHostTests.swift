import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A child process's life through the `apiary` binary: crashes of a Swift plugin (fatalError, a
/// stack overflow, exit) and of a Python module (`Tests/Fixtures/Supervision/faulty.py`), the
/// restart policy with backoff, the health check, `:restart` loading new code, SIGTERM and
/// SIGKILL of the host. Every wait is on what the host prints, never on the clock.
@Suite struct SupervisionHostTests {
  static let faulty = HostProcess.root.appendingPathComponent(
    "Tests/Fixtures/Supervision/faulty.py")
  static let python: String? = ProcessInfo.processInfo.environment["PATH"]?
    .split(separator: ":").map { "\($0)/python3" }
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  /// A process-placed Python module `name` (target `name`) running `script` with `arguments`,
  /// its hooks bounded by `timeout`, with `extra` manifest keys (`"restart": …`).
  static func pythonModule(
    _ name: String, script: String, arguments: [String] = [], timeout: Double = 10,
    extra: String = ""
  ) -> String {
    let command = ([python ?? "python3", script] + arguments).map { "\"\($0)\"" }
    return """
      {"name": "\(name)", "type": "Python.Faulty", "placement": "process", "timeout": \(timeout),
       "command": [\(command.joined(separator: ", "))]\(extra.isEmpty ? "" : ", " + extra),
       "targets": [{"name": "\(name)", "type": "Python.FaultyTarget", "actions": [
         {"name": "pid", "remote": true, "returns": "int"},
         {"name": "version", "remote": true, "returns": "string"},
         {"name": "crash", "remote": true, "parameters": [{"name": "how", "type": "string"}]}]}]}
      """
  }

  /// A process-placed `FaultPlugin.FaultModule` `name` with its target `name`.
  static func swiftModule(_ name: String, library: String? = nil, extra: String = "") -> String {
    let library = library ?? SignalTests.plugin.library("FaultPlugin").path
    return """
      {"name": "\(name)", "type": "FaultPlugin.FaultModule", "placement": "process",
       "library": "\(library)", "version": "1.0.0",
       "timeout": 30\(extra.isEmpty ? "" : ", " + extra),
       "targets": [{"name": "\(name)", "type": "FaultPlugin.FaultTarget", "actions": [
         {"name": "pid", "remote": true, "returns": "int"},
         {"name": "image", "remote": true, "returns": "string"},
         {"name": "crash", "remote": true, "parameters": [{"name": "how", "type": "string"}]}]}]}
      """
  }

  static func application(_ modules: [String]) throws -> URL {
    try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Faults", "scheme": "faults"}"#,
      "modules/faults.json": """
      {"schemaVersion": 1, "modules": [\(modules.joined(separator: ",\n"))]}
      """,
    ])
  }

  /// Starts `apiary arguments…`, killed after two minutes should a test wait for output that
  /// never comes.
  static func start(_ arguments: [String]) throws -> HostProcess.Running {
    let host = try HostProcess.Running(arguments)
    let process = host.process
    DispatchQueue.global().asyncAfter(deadline: .now() + 120) {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    return host
  }

  /// Sends `line` to the host's standard input.
  static func send(_ host: HostProcess.Running, _ line: String) {
    host.input.fileHandleForWriting.write(Data((line + "\n").utf8))
  }

  /// Reads the host's standard output until a line satisfies `matches`; that line, or nil at
  /// the end of output.
  static func readLine(
    _ host: HostProcess.Running, _ buffer: inout String, _ matches: (String) -> Bool
  )
    -> String?
  {
    while true {
      let lines = buffer.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      for (index, line) in lines.dropLast().enumerated() where matches(line) {
        buffer = lines[(index + 1)...].joined(separator: "\n")
        return line
      }
      let chunk = host.output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { return nil }
      buffer += String(decoding: chunk, as: UTF8.self)
    }
  }

  /// Whether `pid` is gone (or a zombie nobody reaps), polling up to about 30 s.
  static func ends(_ pid: Int32) -> Bool {
    for _ in 0..<3000 {
      if kill(pid, 0) != 0 && errno == ESRCH { return true }
      let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
      if let state = stat.split(separator: ")").last?.split(separator: " ").first, state == "Z" {
        return true
      }
      usleep(10_000)
    }
    return false
  }

  /// fatalError, a stack overflow and `exit` in a Swift plugin placed in a child: each call in
  /// flight gets a typed error naming the module and the signal or status, each module is marked
  /// failed, and the host runs on and shuts down cleanly.
  @Test func swiftPluginCrashesStayInTheirChild() throws {
    let directory = try Self.application([
      Self.swiftModule("fatal"), Self.swiftModule("deep"), Self.swiftModule("quits"),
    ])
    let host = try Self.start(["run", directory.path, "--quiet"])
    Self.send(host, "faults://fatal/crash?how=fatalError")
    #expect(host.waitForError("apiary: module 'fatal' failed"))
    Self.send(host, "faults://deep/crash?how=recursion")
    #expect(host.waitForError("apiary: module 'deep' failed"))
    Self.send(host, "faults://quits/crash?how=exit")
    #expect(host.waitForError("apiary: module 'quits' failed"))
    Self.send(host, ":wait")  // the crashed calls' results come first
    Self.send(host, ":modules")
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 6, "\(result.stdout)")
    guard lines.count == 6 else { return }
    #expect(lines[0].hasPrefix("error: module 'fatal' (pid "), "\(lines[0])")
    #expect(lines[0].hasSuffix("): killed by signal 4 (SIGILL)") || lines[0].hasSuffix("(SIGTRAP)"))
    #expect(lines[1].hasPrefix("error: module 'deep' (pid ") && lines[1].hasSuffix("(SIGSEGV)"))
    #expect(
      lines[2].hasPrefix("error: module 'quits' (pid ")
        && lines[2].hasSuffix("): exited with status 3"))
    for (index, name) in ["fatal", "deep", "quits"].enumerated() {
      #expect(lines[3 + index].hasPrefix(name) && lines[3 + index].contains("failed"), "\(lines)")
    }
    #expect(result.stderr.contains("[fatal] fault: crash fatalError"))
    #expect(result.stderr.contains("Fatal error: crash requested"))
    #expect(result.stderr.contains("apiary: module 'deep' crashed: its process"))
  }

  /// A Swift plugin's crash in a child shows the crashed thread's innermost frames, the
  /// plugin's among them: the Swift runtime's default report (every thread, the registers, the
  /// images: about 150 lines) buried the host's one-line crash report.
  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] == nil,
      "SWIFT_BACKTRACE is set, and the children get it"))
  func aSwiftCrashInAChildShowsACompactBacktrace() throws {
    let directory = try Self.application([Self.swiftModule("fatal")])
    let host = try Self.start(["run", directory.path, "--quiet"])
    Self.send(host, "faults://fatal/crash?how=fatalError")
    #expect(host.waitForError("apiary: module 'fatal' failed"))
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let child = result.stderr.split(separator: "\n").filter { $0.hasPrefix("[fatal] ") }
    #expect(child.contains { $0.hasSuffix("Fatal error: crash requested") }, "\(result.stderr)")
    // The crashed thread alone, with the plugin's frame. (A machine where the runtime cannot
    // run its backtracer prints no thread at all; the rest still holds there.)
    let threads = child.filter { $0.hasPrefix("[fatal] Thread ") }
    #expect(threads.count <= 1, "\(result.stderr)")
    if let thread = threads.first {
      #expect(thread.hasSuffix(" crashed:"), "\(result.stderr)")
      #expect(child.contains { $0.contains(" in libFaultPlugin.so at ") }, "\(result.stderr)")
    }
    #expect(!result.stderr.contains("Registers:") && !result.stderr.contains("Images ("))
    #expect(!result.stderr.contains("swift runtime:"), "\(result.stderr)")
    #expect(child.count < 40, "\(result.stderr)")
    #expect(result.stderr.contains("apiary: module 'fatal' crashed: its process "))
  }

  /// `on-failure` with two restarts, 0.05 s then 0.1 s apart; the third crash fails the module.
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func crashedChildIsRestartedWithBackoffUntilItsRestartsRunOut() throws {
    let restart = """
      "restart": {"policy": "on-failure", "maxRestarts": 2,
                  "backoff": {"initialSeconds": 0.05, "maxSeconds": 1}}
      """
    let directory = try Self.application([
      Self.pythonModule("faulty", script: Self.faulty.path, extra: restart)
    ])
    let host = try Self.start(["run", directory.path, "--quiet"])
    // `:wait` between calls: `run` runs the calls typed one after another side by side.
    Self.send(host, "faults://faulty/pid")
    Self.send(host, ":wait")
    Self.send(host, "faults://faulty/crash?how=segv")
    #expect(host.waitForError("apiary: module 'faulty' running again"))
    Self.send(host, "faults://faulty/pid")
    Self.send(host, ":wait")
    Self.send(host, "faults://faulty/crash?how=exit")
    #expect(host.waitForError("(restart 2)"))
    Self.send(host, ":wait")
    Self.send(host, ":modules")
    Self.send(host, "faults://faulty/crash?how=abort")
    #expect(host.waitForError("apiary: module 'faulty' failed"))
    Self.send(host, ":wait")
    Self.send(host, ":modules")
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 7, "\(result.stdout)")
    guard lines.count == 7, let first = Int32(lines[0]), let second = Int32(lines[2]) else {
      return
    }
    #expect(lines[1] == "error: module 'faulty' (pid \(first)): killed by signal 11 (SIGSEGV)")
    #expect(second != first)
    #expect(lines[3] == "error: module 'faulty' (pid \(second)): exited with status 3")
    #expect(lines[4].contains("(process: running, pid "), "\(lines[4])")
    #expect(lines[4].hasSuffix(", 2 restarts, last exit: exited with status 3)"), "\(lines[4])")
    #expect(lines[5].hasSuffix("killed by signal 6 (SIGABRT)"))
    #expect(lines[6].hasPrefix("faulty       failed while running: "), "\(lines[6])")
    #expect(lines[6].hasSuffix("killed by signal 6 (SIGABRT); gave up after 2 restarts"))
    #expect(result.stderr.contains("apiary: restarting 'faulty' in 0.05 seconds (restart 1 of 2)"))
    #expect(result.stderr.contains("apiary: restarting 'faulty' in 0.1 seconds (restart 2 of 2)"))
    #expect(result.stderr.contains("[faulty] faulty crashing: segv"))
    #expect(Self.ends(first) && Self.ends(second))
  }

  /// After a `:restart` (which starts the count again), a crash is restart 1 on standard error
  /// and in `:modules` alike: the host said "(restart 1 of 3)", then "running again: pid …
  /// (restart 2)", and `:modules` "2 restarts".
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func aCrashAfterARestartCommandIsCountedFromOneEverywhere() throws {
    let restart = #""restart": {"policy": "on-failure", "backoff": {"initialSeconds": 0.05}}"#
    let directory = try Self.application([
      Self.pythonModule("faulty", script: Self.faulty.path, extra: restart)
    ])
    let host = try Self.start(["run", directory.path, "--quiet"])
    Self.send(host, ":restart faulty")
    Self.send(host, "faults://faulty/crash?how=segv")  // after the `:restart`, which it waits for
    #expect(host.waitForError("apiary: module 'faulty' running again"))
    Self.send(host, ":wait")
    Self.send(host, ":modules")
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(result.stdout)")
    guard lines.count == 3 else { return }
    #expect(lines[0].hasPrefix("restarted 'faulty': pid "), "\(lines[0])")
    #expect(lines[1].hasSuffix("killed by signal 11 (SIGSEGV)"), "\(lines[1])")
    #expect(
      lines[2].hasSuffix(", 1 restart, last exit: killed by signal 11 (SIGSEGV))"), "\(lines[2])")
    #expect(result.stderr.contains("apiary: restarting 'faulty' in 0.05 seconds (restart 1 of 3)"))
    let again = result.stderr.split(separator: "\n").filter { $0.contains("running again") }
    #expect(again.count == 1 && again[0].hasSuffix(" (restart 1)"), "\(result.stderr)")
  }

  /// A stopped child answers no ping: the health check kills it and the policy restarts it.
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func hungChildIsKilledByTheHealthCheckAndRestarted() throws {
    let keys = """
      "restart": {"policy": "on-failure", "backoff": {"initialSeconds": 0.05}},
      "healthCheck": {"intervalSeconds": 0.1, "timeoutSeconds": 0.3}
      """
    let directory = try Self.application([
      Self.pythonModule("faulty", script: Self.faulty.path, extra: keys)
    ])
    let host = try Self.start(["run", directory.path, "--quiet"])
    Self.send(host, "faults://faulty/pid")
    Self.send(host, ":wait")  // calls typed one after another run side by side
    Self.send(host, "faults://faulty/crash?how=stop")
    #expect(host.waitForError("apiary: module 'faulty' running again"))
    Self.send(host, "faults://faulty/pid")
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(result.stdout)")
    guard lines.count == 3, let first = Int32(lines[0]), let second = Int32(lines[2]) else {
      return
    }
    #expect(
      lines[1] == "error: module 'faulty' (pid \(first)): no answer to a health check ping "
        + "within 0.3 seconds; killed")
    #expect(second != first)
    #expect(result.stderr.contains("apiary: module 'faulty' (pid \(first)) hung"))
    #expect(Self.ends(first))
  }

  /// What ``breakWire(_:)`` saw.
  struct BrokenWire {
    var pid: Int32
    /// The error line of the call that found the wire broken.
    var failure: String?
    var result: HostProcess.Result
    /// The pids the module answered after its restart.
    var later: [Int32]
  }

  /// A `faulty` child restarted on failure breaks its wire with `crash?how=HOW`, and is called
  /// once it runs again.
  static func breakWire(_ how: String) throws -> BrokenWire? {
    let restart = #""restart": {"policy": "on-failure", "backoff": {"initialSeconds": 0.05}}"#
    let directory = try application([
      pythonModule("faulty", script: faulty.path, extra: restart)
    ])
    let host = try start(["run", directory.path, "--quiet"])
    var output = ""
    send(host, "faults://faulty/pid")
    let pid = readLine(host, &output) { Int32($0) != nil }.flatMap { Int32($0) }
    send(host, "faults://faulty/crash?how=\(how)")
    let failure = readLine(host, &output) { $0.hasPrefix("error: ") }
    #expect(host.waitForError("apiary: module 'faulty' running again"))
    send(host, "faults://faulty/pid")
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let later = (output + result.stdout).split(separator: "\n").compactMap { Int32($0) }
    return pid.map { BrokenWire(pid: $0, failure: failure, result: result, later: later) }
  }

  /// A child that writes what is not a frame on its standard output can never answer again:
  /// the host ends it at once (the call fails naming the module and what it sent, not after the
  /// action's 30 s) and the policy restarts it.
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func childBreakingTheWireProtocolIsEndedAndRestarted() throws {
    let broken = try Self.breakWire("garbage")
    guard let broken else {
      Issue.record("the child answered no pid")
      return
    }
    #expect(
      broken.failure == "error: module 'faulty' (pid \(broken.pid)): broke the wire protocol "
        + "(malformed frame header: not a header); ended")
    #expect(
      broken.result.stderr.contains(
        "apiary: module 'faulty' (pid \(broken.pid)) broke the wire protocol: malformed frame "
          + "header: not a header; ending it"), "\(broken.result.stderr)")
    #expect(broken.later.count == 1 && broken.later.first != broken.pid)
    #expect(Self.ends(broken.pid))
  }

  /// A child that closed its standard input cannot be sent a call: the call fails at once,
  /// naming the module and its process, not as an anonymous "connection closed".
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func callToAChildThatClosedItsInputNamesTheModule() throws {
    let directory = try Self.application([
      Self.pythonModule("faulty", script: Self.faulty.path, timeout: 1)
    ])
    let host = try Self.start(["run", directory.path, "--quiet"])
    var output = ""
    Self.send(host, "faults://faulty/pid")
    let pid = Self.readLine(host, &output) { Int32($0) != nil }
    Self.send(host, "faults://faulty/crash?how=closein")
    #expect(Self.readLine(host, &output) { $0 == #""closed""# } != nil)
    Self.send(host, "faults://faulty/pid")
    let result = try host.finish()
    let lines = (output + result.stdout).split(separator: "\n").map(String.init)
    guard let pid else { return }
    #expect(
      lines == [
        "error: module 'faulty' (pid \(pid)): connection closed: write failed: Broken pipe"
      ],
      "\(result.stderr)")
  }

  /// A child that closed its standard input but lives on can no longer be told anything: after
  /// the first write that fails, the host ends it once the module's `timeout` has passed, and
  /// its restart policy brings up a new one (before, it stayed "running" and every call failed).
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func childThatClosedItsInputButLivesOnIsEndedAndRestarted() throws {
    let restart = #""restart": {"policy": "on-failure", "backoff": {"initialSeconds": 0.05}}"#
    let directory = try Self.application([
      Self.pythonModule("faulty", script: Self.faulty.path, timeout: 1, extra: restart)
    ])
    let host = try Self.start(["run", directory.path, "--quiet"])
    var output = ""
    Self.send(host, "faults://faulty/pid")
    let first = Self.readLine(host, &output) { Int32($0) != nil }.flatMap { Int32($0) }
    Self.send(host, "faults://faulty/crash?how=closein")
    #expect(Self.readLine(host, &output) { $0 == #""closed""# } != nil)
    Self.send(host, "faults://faulty/pid")
    Self.send(host, ":wait")  // its result comes before the next call's
    #expect(host.waitForError("apiary: module 'faulty' running again"))
    Self.send(host, "faults://faulty/pid")
    let result = try host.finish()
    let lines = (output + result.stdout).split(separator: "\n").map(String.init)
    guard let pid = first else { return }
    #expect(lines.count == 2, "\(lines) \(result.stderr)")
    #expect(
      lines.first
        == "error: module 'faulty' (pid \(pid)): connection closed: write failed: Broken pipe")
    #expect(lines.last.flatMap { Int32($0) }.map { $0 != pid } == true, "\(lines)")
    #expect(
      result.stderr.contains(
        "apiary: module 'faulty' (pid \(pid)) closed its standard input but did not exit within "
          + "1.0 seconds; ending it"), "\(result.stderr)")
    #expect(Self.ends(pid))
  }

  /// A child stuck in `start` or `tearDown` past the module's `timeout` is ended when the
  /// kernel gives up on the hook: the module that did not start keeps no child (a module that
  /// fails `start` is never torn down), and neither outlives the host. (A timeout of 2 s, which
  /// also bounds `setUp`: Python's start on a loaded machine can take most of 0.5 s.)
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func childStuckInStartOrTearDownIsEndedAtTheTimeout() throws {
    let directory = try Self.application([
      Self.pythonModule(
        "starts", script: Self.faulty.path, arguments: ["hang=start"], timeout: 2,
        extra: #""optional": true"#),
      Self.pythonModule(
        "stops", script: Self.faulty.path, arguments: ["hang=tearDown"], timeout: 2),
    ])
    let host = try Self.start(["run", directory.path, "--quiet"])
    var output = ""
    Self.send(host, "faults://stops/pid")
    let stops = Self.readLine(host, &output) { Int32($0) != nil }.flatMap { Int32($0) }
    #expect(host.waitForError("hangs in start"))
    let starts = Self.pid(hangingIn: "start", String(decoding: host.stderr, as: UTF8.self))
    guard let starts, let stops else {
      Issue.record("no pids: \(String(decoding: host.stderr, as: UTF8.self))")
      return
    }
    #expect(Self.ends(starts), "the child of a module that failed in start runs on")
    Self.send(host, ":modules")
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("starts       failed in start: did not finish within 2.0 s"))
    #expect(!result.stdout.contains("process: running, pid \(starts)"), "\(result.stdout)")
    #expect(result.stderr.contains("faulty \(stops) hangs in tearDown"), "\(result.stderr)")
    #expect(Self.ends(stops), "a child stuck in tearDown outlived its host")
    #expect(!result.stderr.contains("crashed"), "\(result.stderr)")
  }

  /// A child stuck in its handshake past the module's `timeout` fails the boot; the host kills
  /// it on its way out, saying so, rather than leave it running. (A timeout of 3 s: with 0.5 s,
  /// Python's start on a loaded machine took all of it, and the child never said where it hung.)
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func childStuckInItsHandshakeDoesNotOutliveAFailedBoot() throws {
    let directory = try Self.application([
      Self.pythonModule(
        "mute", script: Self.faulty.path, arguments: ["hang=initialize"], timeout: 3)
    ])
    let result = try HostProcess.run(["run", directory.path, "--quiet"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("error: boot failed: module 'mute' failed in setUp"))
    guard let pid = Self.pid(hangingIn: "initialize", result.stderr) else {
      Issue.record("no pid: \(result.stderr)")
      return
    }
    #expect(Self.ends(pid), "a child stuck in its handshake outlived its host")
  }

  /// A boot that fails in another module's `start` ends the child of a process-placed module
  /// that was set up but not started yet, quietly: the host said "apiary: module 'placed' (pid
  /// 4242) still running at exit; killed", as if `placed` had hung.
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func aFailedBootEndsTheChildrenOfModulesThatDidNotStartQuietly() throws {
    let library = SignalTests.plugin.library("FaultPlugin").path
    let directory = try Self.application([
      """
      {"name": "refuser", "type": "FaultPlugin.FaultModule", "library": "\(library)",
       "version": "1.0.0", "level": "basic", "config": {"failIn": "start"}}
      """,
      Self.pythonModule("placed", script: Self.faulty.path),
    ])
    let result = try HostProcess.run(["run", directory.path, "--quiet"])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("error: boot failed: module 'refuser' failed in start"),
      "\(result.stderr)")
    #expect(!result.stderr.contains("still running at exit"), "\(result.stderr)")
    #expect(!result.stderr.contains("crashed"), "\(result.stderr)")
  }

  /// A host that exits because its shutdown overran `--shutdown-timeout` (status 3), or at a
  /// second signal (status 4), kills the child stuck in its handshake on the way out, though the
  /// child does not watch its lifeline.
  @Test(
    .enabled(if: python != nil, "python3 is not installed"),
    arguments: [(signals: 1, timeout: "0.2", status: Int32(3)), (2, "3600", 4)])
  func childStuckInItsHandshakeDoesNotOutliveAHostThatGivesUp(
    signals: Int, timeout: String, status: Int32
  ) throws {
    let directory = try Self.application([
      Self.pythonModule(
        "mute", script: Self.faulty.path, arguments: ["hang=initialize"], timeout: 60)
    ])
    let host = try Self.start(["run", directory.path, "--quiet", "--shutdown-timeout", timeout])
    #expect(host.waitForError("hangs in initialize"))
    host.signal(SIGINT)
    if signals == 2 {
      #expect(host.waitForError("signal 2: shutting down"))
      host.signal(SIGINT)
    }
    let result = try host.finish()
    #expect(result.status == status, "\(result.stderr)")
    guard let pid = Self.pid(hangingIn: "initialize", result.stderr) else {
      Issue.record("no pid: \(result.stderr)")
      return
    }
    #expect(
      result.stderr.contains("apiary: module 'mute' (pid \(pid)) still running at exit; killed"),
      "\(result.stderr)")
    #expect(Self.ends(pid), "a child stuck in its handshake outlived its host")
  }

  /// The pid of the `faulty` child that said on `stderr` it hangs in `method` (`[mute] faulty
  /// 4242 hangs in start`).
  static func pid(hangingIn method: String, _ stderr: String) -> Int32? {
    let line = stderr.split(separator: "\n").first { $0.hasSuffix(" hangs in \(method)") }
    return line?.split(separator: " ").dropFirst(2).first.flatMap { Int32($0) }
  }

  /// `:restart` starts a new child with the code on disk now.
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func restartCommandLoadsNewCode() throws {
    let script = HostProcess.temporaryDirectory().appendingPathComponent("faulty.py")
    try FileManager.default.copyItem(at: Self.faulty, to: script)
    let directory = try Self.application([Self.pythonModule("faulty", script: script.path)])
    let host = try Self.start(["run", directory.path, "--quiet"])
    var output = ""
    Self.send(host, "faults://faulty/version")
    #expect(Self.readLine(host, &output) { $0 == #""one""# } != nil)
    let code = try String(contentsOf: script, encoding: .utf8)
    try code.replacingOccurrences(of: #"VERSION = "one""#, with: #"VERSION = "two""#)
      .write(to: script, atomically: true, encoding: .utf8)
    Self.send(host, ":restart faulty")
    Self.send(host, "faults://faulty/version")
    Self.send(host, ":wait")  // `:modules` would answer before the call in flight
    Self.send(host, ":modules")
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let lines = (output + result.stdout).split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(lines)")
    guard lines.count == 3 else { return }
    #expect(lines[0].hasPrefix("restarted 'faulty': pid "))
    #expect(lines[1] == #""two""#)
    #expect(
      lines[2].contains("0 restarts, last exit: killed by signal 15 (SIGTERM)"), "\(lines[2])")
  }

  /// What a module in a child prints reaches the host's standard error, tagged, as it prints
  /// it: the child's standard output (standard error, the wire being apart) was buffered in
  /// blocks, so a line came only when the child ended, or never if it crashed.
  @Test func whatAChildPrintsReachesTheHostAtOnce() throws {
    let directory = try Self.application([
      Self.swiftModule("talker", extra: #""config": {"printInStart": "talker says hello"}"#)
    ])
    let host = try Self.start(["run", directory.path, "--quiet"])
    #expect(host.waitForError("[talker] talker says hello"))
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// A module whose hook throws in its child is failed in that phase with what the hook threw,
  /// once: it read "failed in setUp: module 'refuser' failed in setUp: fault refused to setUp".
  @Test func aHookThatThrowsInAChildSaysSoOnce() throws {
    let directory = try Self.application([
      Self.swiftModule("refuser", extra: #""optional": true, "config": {"failIn": "setUp"}"#)
    ])
    let result = try HostProcess.run(["run", directory.path, "--quiet"], input: ":modules\n")
    #expect(result.status == 0, "\(result.stderr)")
    let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("refuser ") }
    #expect(line?.contains("failed in setUp: ") == true, "\(result.stdout)")
    #expect(line?.hasSuffix("fault refused to setUp") == true, "\(result.stdout)")
    #expect(line?.contains("module 'refuser' failed") == false, "\(result.stdout)")
  }

  /// A child that crashes in its module's `start` fails that start and is not restarted, as
  /// its policy restarts a running module's child only: the host said "apiary: restarting
  /// 'early' in 0.5 seconds (restart 1 of 3)", and no restart came.
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func aChildThatCrashesInStartIsNotRestarted() throws {
    let directory = try Self.application([
      Self.pythonModule(
        "early", script: Self.faulty.path, arguments: ["crash=start"],
        extra: #""optional": true, "restart": {"policy": "on-failure"}"#)
    ])
    let result = try HostProcess.run(["run", directory.path, "--quiet"], input: ":modules\n")
    #expect(result.status == 0, "\(result.stderr)")
    let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("early ") }
    #expect(line?.contains("failed in start: ") == true, "\(result.stdout)")
    #expect(line?.hasSuffix("killed by signal 6 (SIGABRT)") == true, "\(result.stdout)")
    #expect(result.stderr.contains("apiary: module 'early' crashed: "), "\(result.stderr)")
    #expect(!result.stderr.contains("restarting 'early'"), "\(result.stderr)")
  }

  /// `:restart` keeps no descriptor of the child it replaced: each restart kept the write end
  /// of the old child's standard input (250 restarts, 251 more descriptors).
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func restartsKeepNoDescriptorsOfTheChildrenTheyReplaced() throws {
    let directory = try Self.application([Self.pythonModule("faulty", script: Self.faulty.path)])
    let host = try Self.start(["run", directory.path, "--quiet"])
    var output = ""
    func descriptors() -> Int {
      let path = "/proc/\(host.process.processIdentifier)/fd"
      return (try? FileManager.default.contentsOfDirectory(atPath: path).count) ?? -1
    }
    func restart() {
      Self.send(host, ":restart faulty")
      _ = Self.readLine(host, &output) { $0.hasPrefix("restarted 'faulty'") }
    }
    restart()
    let before = descriptors()
    for _ in 0..<10 { restart() }
    let after = descriptors()
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(before > 0 && after == before, "descriptors: \(before) before, \(after) after")
  }

  /// A process-placed module added with `:load` whose child failed for good is restarted as one
  /// planned at boot: `:restart` said it was "not a module placed in a child process", since only
  /// the boot plan's manifests were looked at.
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func aLoadedProcessModuleCanBeRestarted() throws {
    let directory = try Self.application([])
    let extra = directory.appendingPathComponent("extra.json")
    try
      #"{"schemaVersion": 1, "modules": [\#(Self.pythonModule("late", script: Self.faulty.path))]}"#
      .write(to: extra, atomically: true, encoding: .utf8)
    let host = try Self.start(["run", directory.path, "--quiet"])
    var output = ""
    Self.send(host, ":load \(extra.path)")
    #expect(Self.readLine(host, &output) { $0 == "loaded 'late'" } != nil, "\(output)")
    Self.send(host, "faults://late/crash?how=exit")
    #expect(host.waitForError("apiary: module 'late' failed"))
    Self.send(host, ":restart late")
    Self.send(host, "faults://late/version")
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let lines = (output + result.stdout).split(separator: "\n").map(String.init)
    #expect(Array(lines.suffix(2)) == ["restarted 'late'", #""one""#], "\(lines)")
  }

  /// A `:restart` that fails leaves the module listed as failed, with the reason, and a later
  /// `:restart` of the fixed code brings it back. The module vanished: `:modules` left it out,
  /// and `:restart` said it was not running.
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func aFailedRestartKeepsTheModuleToRestartAgain() throws {
    let script = HostProcess.temporaryDirectory().appendingPathComponent("faulty.py")
    try FileManager.default.copyItem(at: Self.faulty, to: script)
    let directory = try Self.application([Self.pythonModule("faulty", script: script.path)])
    let host = try Self.start(["run", directory.path, "--quiet"])
    Self.send(host, "faults://faulty/crash?how=exit")
    #expect(host.waitForError("apiary: module 'faulty' failed"))
    let code = try String(contentsOf: script, encoding: .utf8)
    try "import sys\nsys.exit(5)\n".write(to: script, atomically: true, encoding: .utf8)
    Self.send(host, ":restart faulty")
    Self.send(host, ":modules")
    var output = ""
    let refused = Self.readLine(host, &output) { $0.contains("exited with status 5") }
    let listed = Self.readLine(host, &output) { $0.hasPrefix("faulty ") }
    try code.write(to: script, atomically: true, encoding: .utf8)
    Self.send(host, ":restart faulty")
    Self.send(host, "faults://faulty/version")
    Self.send(host, ":restart nope")
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      refused?.hasPrefix("error: restarting 'faulty' failed: ") == true,
      "\(String(describing: refused))")
    #expect(
      listed?.hasPrefix("faulty       failed in setUp: ") == true, "\(String(describing: listed))")
    let lines = (output + result.stdout).split(separator: "\n").map(String.init)
    #expect(
      lines == ["restarted 'faulty'", #""one""#, "error: no module named 'nope'"], "\(lines)")
  }

  /// `:restart` of a Swift plugin's child opens the library file as it is now: a rebuilt
  /// library (here a new copy at the same path, a new inode) is mapped by the new child.
  @Test func restartCommandOpensTheLibraryAsItIsNow() throws {
    let files = FileManager.default
    let original = SignalTests.plugin.library("FaultPlugin")
    let library = HostProcess.temporaryDirectory().appendingPathComponent("libFaultPlugin.so")
    try files.copyItem(at: original, to: library)
    let directory = try Self.application([Self.swiftModule("swift", library: library.path)])
    let host = try Self.start(["run", directory.path, "--quiet"])
    var output = ""
    Self.send(host, "faults://swift/image")
    let before = Self.readLine(host, &output) { $0.hasPrefix("\"") }
    let rebuilt = library.deletingLastPathComponent().appendingPathComponent("rebuilt.so")
    try files.copyItem(at: original, to: rebuilt)
    #expect(rename(rebuilt.path, library.path) == 0)
    let inode = try files.attributesOfItem(atPath: library.path)[.systemFileNumber] as? Int
    Self.send(host, ":restart swift")
    Self.send(host, "faults://swift/image")
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let lines = (output + result.stdout).split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(lines)")
    guard lines.count == 2, let before, let inode else { return }
    #expect(lines[0].hasPrefix("restarted 'swift': pid "))
    #expect(lines[1] == "\"\(inode)\"")
    #expect(lines[1] != before)
  }

  /// SIGKILL gives the host no chance to end its children: they end themselves (the Swift child
  /// through its lifeline, the Python one at the end of its input).
  @Test func sigkillOfTheHostLeavesNoChild() throws {
    var modules = [Self.swiftModule("swift")]
    if Self.python != nil { modules.append(Self.pythonModule("python", script: Self.faulty.path)) }
    let directory = try Self.application(modules)
    let host = try Self.start(["run", directory.path, "--quiet"])
    var output = ""
    var pids: [Int32] = []
    for module in ["swift", "python"].prefix(modules.count) {
      Self.send(host, "faults://\(module)/pid")
      if let line = Self.readLine(host, &output, { Int32($0) != nil }), let pid = Int32(line) {
        pids.append(pid)
      }
    }
    #expect(pids.count == modules.count)
    host.signal(SIGKILL)
    _ = try host.finish()
    for pid in pids { #expect(Self.ends(pid), "child \(pid) outlived its host") }
  }

  /// SIGTERM tears the children down with the other modules, the dependent first.
  @Test func sigtermTearsChildrenDownInReverseOrder() throws {
    let directory = try Self.application([
      Self.swiftModule("first"), Self.swiftModule("second", extra: #""dependencies": ["first"]"#),
    ])
    let host = try Self.start(["run", directory.path])
    var output = ""
    var pids: [Int32] = []
    for module in ["first", "second"] {
      Self.send(host, "faults://\(module)/pid")
      if let line = Self.readLine(host, &output, { Int32($0) != nil }), let pid = Int32(line) {
        pids.append(pid)
      }
    }
    host.signal(SIGTERM)
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let second = result.stderr.range(of: "second       tearDown ok")
    let first = result.stderr.range(of: "first        tearDown ok")
    #expect(second != nil && first != nil, "\(result.stderr)")
    if let second, let first { #expect(second.lowerBound < first.lowerBound) }
    #expect(result.stderr.contains("[first] fault first: tearDown"))
    for pid in pids { #expect(Self.ends(pid)) }
  }
}
