import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT and SIGTERM stop `run`, `call` and `inspect` whatever module code is doing, with the
/// modules from `Tests/Fixtures/FaultPlugin` that hang on purpose.
@Suite struct SignalTests {
  /// Exit statuses from the README.
  static let failure: Int32 = 1
  static let shutdownTimedOut: Int32 = 3
  static let forced: Int32 = 4

  /// The fault plugin, built apart from the host once per test process.
  static var plugin: PluginPackage { PluginPackage.faults }

  /// An application of `FaultPlugin.FaultModule`s, one per `(name, config JSON)`, from the
  /// plugin's library, and the `faults` target (with its remote `hang` action) on the first.
  static func application(_ modules: [(name: String, config: String, async: Bool)]) throws -> URL {
    let library = plugin.library("FaultPlugin").path
    let target = """
      , "targets": [{"name": "faults", "type": "FaultPlugin.FaultTarget",
                     "actions": [{"name": "hang", "remote": true, "timeout": 3600}]}]
      """
    let entries = modules.enumerated().map { index, module in
      """
      {"name": "\(module.name)", "type": "FaultPlugin.FaultModule", "async": \(module.async),
       "library": "\(library)", "version": "1.0.0", "timeout": 3600,
       "config": \(module.config)\(index == 0 ? target : "")}
      """
    }
    return try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Faults", "scheme": "fault"}"#,
      "modules/faults.json": """
      {"schemaVersion": 1, "modules": [\(entries.joined(separator: ", "))]}
      """,
    ])
  }

  @Test func signalDuringAHangingSetUpEndsTheHostAtTheShutdownDeadline() throws {
    let directory = try Self.application([
      ("steady", "{}", false), ("stuck", #"{"hangIn": "setUp"}"#, false),
    ])
    let host = try HostProcess.Running([
      "run", "--manifests", directory.path, "--shutdown-timeout", "0.5",
    ])
    #expect(host.waitForError("fault stuck: setUp"))
    host.signal(SIGINT)
    let result = try host.finish()
    #expect(result.status == Self.shutdownTimedOut, "\(result.stderr)")
    #expect(result.stderr.contains("signal 2: shutting down"))
    #expect(result.stderr.contains("shutdown did not finish within 0.5 s"))
  }

  @Test func secondSignalExitsAtOnceWithItsOwnStatus() throws {
    let directory = try Self.application([("stuck", #"{"hangIn": "setUp"}"#, false)])
    for command in [
      ["run", "--manifests", directory.path], ["inspect", directory.path],
      ["call", "fault://faults/hang", "--manifests", directory.path],
    ] {
      let host = try HostProcess.Running(command + ["--shutdown-timeout", "3600"])
      #expect(host.waitForError("fault stuck: setUp"))
      host.signal(SIGTERM)
      #expect(host.waitForError("signal 15: shutting down"))
      host.signal(SIGINT)
      let result = try host.finish()
      #expect(result.status == Self.forced, "\(command[0]): \(result.stderr)")
      #expect(result.stderr.contains("second signal: exiting at once"))
    }
  }

  /// As many modules as there are CPUs (and one more) block their threads in `start`, so no
  /// Swift concurrency thread is free; the signals still work.
  @Test func signalsWorkWhileModulesBlockEveryPoolThread() throws {
    let count = ProcessInfo.processInfo.activeProcessorCount + 1
    let directory = try Self.application(
      (0..<count).map { ("blocker\($0)", #"{"hangIn": "start"}"#, true) })
    let timedOut = try HostProcess.Running([
      "run", "--manifests", directory.path, "--shutdown-timeout", "0.5",
    ])
    #expect(timedOut.waitForError(": start"))
    timedOut.signal(SIGINT)
    #expect(try timedOut.finish().status == Self.shutdownTimedOut)

    let forced = try HostProcess.Running(["run", "--manifests", directory.path])
    #expect(forced.waitForError(": start"))
    forced.signal(SIGINT)
    #expect(forced.waitForError("signal 2: shutting down"))
    forced.signal(SIGINT)
    #expect(try forced.finish().status == Self.forced)
  }

  @Test func signalAbandonsAHangingCallAndTearsEveryModuleDown() throws {
    let directory = try Self.application([("first", "{}", false), ("second", "{}", false)])
    for command in [
      ["call", "fault://faults/hang", "--manifests", directory.path],
      ["run", "--manifests", directory.path],
    ] {
      let host = try HostProcess.Running(command)
      if command[0] == "run" {
        host.input.fileHandleForWriting.write(Data("fault://faults/hang\n".utf8))
      }
      #expect(host.waitForError("fault: hang"))
      host.signal(SIGINT)
      let result = try host.finish()
      let tornDown = result.stderr.split(separator: "\n").filter { $0.hasSuffix(": tearDown") }
      #expect(tornDown == ["fault second: tearDown", "fault first: tearDown"], "\(result.stderr)")
      if command[0] == "call" {
        #expect(result.status == Self.failure)
        #expect(result.stderr.contains("error: interrupted; the call did not finish"))
      } else {
        #expect(result.status == 0, "a stopped run is a normal end: \(result.stderr)")
      }
    }
  }

  /// A signal while `call` boots lets the boot finish, performs no call, and tears down.
  @Test func signalDuringCallBootTearsDownWhatStarted() throws {
    let gate = HostProcess.temporaryDirectory().appendingPathComponent("open")
    let directory = try Self.application([
      ("first", "{}", false), ("gated", #"{"startGate": "\#(gate.path)"}"#, false),
    ])
    let host = try HostProcess.Running([
      "call", "fault://faults/hang", "--manifests", directory.path,
    ])
    #expect(host.waitForError("fault gated: start"))
    host.signal(SIGTERM)
    #expect(host.waitForError("signal 15: shutting down"))
    try Data().write(to: gate)
    let result = try host.finish()
    #expect(result.status == Self.failure, "\(result.stderr)")
    #expect(!result.stderr.contains("fault: hang"), "no call after the signal")
    #expect(result.stderr.contains("fault gated: tearDown"))
    #expect(result.stderr.contains("fault first: tearDown"))
  }

  /// Nobody reads standard error, so module code and the host's own messages block on a full
  /// pipe; the deadline and the second signal still end the host.
  @Test func signalsWorkWhenStandardErrorIsAFullPipe() throws {
    let directory = try Self.application([
      ("flood", #"{"floodStandardError": 1000000}"#, false)
    ])
    for signals in [[SIGINT], [SIGINT, SIGTERM]] {
      let host = try HostProcess.Running([
        "run", directory.path, "--shutdown-timeout", signals.count == 1 ? "0.5" : "3600",
      ])
      #expect(host.waitForError("fault flood: setUp"))
      for number in signals { host.signal(number) }
      let result = try host.finish()
      #expect(result.status == (signals.count == 1 ? Self.shutdownTimedOut : Self.forced))
    }
  }

  @Test func shutdownTimeoutMustBeAPositiveNumber() throws {
    for value in ["0", "-1", "soon", "nan", "1e300"] {
      let result = try HostProcess.run(["run", "--shutdown-timeout", value])
      #expect(result.status == 2, "\(value)")
      #expect(result.stderr.contains("--shutdown-timeout expects seconds"))
    }
  }
}
