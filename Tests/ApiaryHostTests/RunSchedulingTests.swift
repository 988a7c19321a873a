import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How `apiary run` schedules its input lines: calls run side by side, commands that only look
/// answer at once, changes wait for the calls in flight, and the end of input waits for them
/// all together. The calls that hold are `Tests/Fixtures/FaultPlugin`'s `hang` (for good) and
/// `gate` (until the test opens its named pipe), so nothing depends on timing.
@Suite struct RunSchedulingTests {
  /// `first`, with the `faults` target, and `second`, both `FaultPlugin.FaultModule`s.
  static func application() throws -> URL {
    let library = PluginPackage.faults.library("FaultPlugin").path
    let module = #""type": "FaultPlugin.FaultModule", "library": "\#(library)", "version": "1.0.0""#
    return try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Faults", "scheme": "fault"}"#,
      "modules/faults.json": """
      {"schemaVersion": 1, "modules": [
        {"name": "first", \(module), "targets": [{"name": "faults", "type": "FaultPlugin.FaultTarget",
          "actions": [{"name": "hang", "remote": true, "timeout": 3600},
                      {"name": "gate", "remote": true, "timeout": 3600,
                       "parameters": [{"name": "path", "type": "string"}]},
                      {"name": "pid", "remote": true}]}]},
        {"name": "second", \(module), "dependencies": ["first"]}]}
      """,
    ])
  }

  /// Starts `apiary run` on ``application()``; a host still running after a minute is killed,
  /// so a test whose host waits for good fails instead of hanging the suite.
  static func start(quiet: Bool = true) throws -> HostProcess.Running {
    let host = try HostProcess.Running(
      ["run", try application().path] + (quiet ? ["--quiet"] : []))
    let process = host.process
    DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    return host
  }

  static func send(_ host: HostProcess.Running, _ lines: String...) {
    host.input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
  }

  /// Reads the host's standard output into `output` until its lines satisfy `done` (true), or
  /// the output ends (false).
  static func read(
    _ host: HostProcess.Running, into output: inout String, until done: ([String]) -> Bool
  ) -> Bool {
    while !done(output.split(separator: "\n").map(String.init)) {
      let chunk = host.output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { return false }
      output += String(decoding: chunk, as: UTF8.self)
    }
    return true
  }

  /// A named pipe the `gate` action waits on; ``release()`` lets the call through.
  struct Gate {
    let path = HostProcess.temporaryDirectory().appendingPathComponent("gate").path

    init() throws {
      try #require(mkfifo(path, 0o600) == 0, "mkfifo \(path): \(String(cString: strerror(errno)))")
    }

    var call: String { "fault://faults/gate?path=" + path }

    /// Opens the pipe for writing (once the call holds its read end) and closes it.
    func release() {
      let descriptor = open(path, O_WRONLY)
      if descriptor >= 0 { close(descriptor) }
    }
  }

  /// While a call hangs, `:modules` answers and another call runs; at the end of input the
  /// host says what it waits for, and a signal still ends it. The lines after the hanging call
  /// waited behind it, and the end of input waited silently.
  @Test func aHangingCallHoldsUpNeitherCommandsNorCalls() throws {
    let host = try Self.start()
    Self.send(host, "fault://faults/hang")
    #expect(host.waitForError("fault: hang"))
    Self.send(host, ":modules", "fault://faults/pid")
    var output = ""
    #expect(
      Self.read(host, into: &output) { $0.count == 3 },
      "the call in flight held the lines after it: \(output)")
    let lines = output.split(separator: "\n").map(String.init)
    #expect(lines.prefix(2) == ["first        running", "second       running"], "\(output)")
    #expect(lines.dropFirst(2).first.flatMap { Int32($0) } == host.process.processIdentifier)
    try host.input.fileHandleForWriting.close()
    #expect(
      host.waitForError("end of input: waiting for 1 call in flight (its time limit ends in "))
    #expect(host.waitForError(" s); Ctrl-C (or SIGTERM) stops waiting and shuts down\n"))
    host.signal(SIGINT)
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let tornDown = result.stderr.split(separator: "\n").filter { $0.hasSuffix(": tearDown") }
    #expect(tornDown == ["fault second: tearDown", "fault first: tearDown"], "\(result.stderr)")
  }

  /// Calls typed before the end of input run together, so the host waits for them together:
  /// both gates are held at once, and each call's result comes when its gate opens. The second
  /// call did not start before the first had finished, so waits added up.
  @Test func theEndOfInputWaitsForTheCallsInFlightTogether() throws {
    let (early, late) = (try Gate(), try Gate())
    let host = try Self.start(quiet: false)
    Self.send(host, late.call, early.call)
    try host.input.fileHandleForWriting.close()
    // `#require` before each release: opening a gate waits for the call that holds it.
    try #require(host.waitForError("fault: gate \(late.path)"))
    try #require(host.waitForError("fault: gate \(early.path)"), "the second call did not start")
    try #require(
      host.waitForError(
        "end of input: waiting for 2 calls in flight (their time limits end within "))
    early.release()
    var output = ""
    try #require(Self.read(host, into: &output) { $0 == ["\"passed\""] }, "\(output)")
    late.release()
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(output + result.stdout == "\"passed\"\n\"passed\"\n")
    let waiting = result.stderr.range(of: "end of input: waiting for 2 calls")
    let shutdown = result.stderr.range(of: "end of input: shutting down")
    #expect(waiting != nil && shutdown != nil, "\(result.stderr)")
    if let waiting, let shutdown { #expect(waiting.lowerBound < shutdown.lowerBound) }
  }

  /// A change waits for the calls in flight, saying so, and the lines after it wait for it;
  /// `:wait` waits for the calls in flight without changing anything.
  @Test func aChangeAndWaitComeAfterTheCallsBeforeThem() throws {
    let (first, second) = (try Gate(), try Gate())
    let host = try Self.start()
    Self.send(host, first.call, ":remove second", ":modules")
    // `#require` before each release: opening a gate waits for the call that holds it.
    try #require(host.waitForError("fault: gate \(first.path)"))
    try #require(
      host.waitForError("waiting for 1 call in flight (its time limit ends in ")
        && host.waitForError(" s) before ':remove second'\n"))
    first.release()
    Self.send(host, second.call, ":wait", ":modules")
    try #require(host.waitForError("fault: gate \(second.path)"))
    second.release()
    let result = try host.finish()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n") == [
        "\"passed\"", "removed 'second'", "first        running", "\"passed\"",
        "first        running",
      ], "\(result.stdout)")
  }
}
