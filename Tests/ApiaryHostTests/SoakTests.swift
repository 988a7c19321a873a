import Foundation
import Testing

/// A long run in little time: `apiary run` serves 100,000 mixed calls and events from standard
/// input, and its resident memory must not grow between the end of the warm-up and the end.
@Suite struct SoakTests {
  /// Lines cycled through: successful and failing calls, refused URLs, events, commands.
  static let mix = [
    "notebook://notes/list",
    "notebook://notes/get?id=1",
    "notebook://notes/get?id=999",
    "notebook://search/query?q=milk",
    "notebook://diagnostics/metrics",
    "notebook://nowhere/thing",
    "other://notes/list",
    ":post note.saved",
    ":post soak.tick n=1",
    ":modules",
  ]
  static let warmUp = 20_000
  static let total = 100_000
  /// How much the resident set may grow over the last 80,000 lines. Measured growth on an idle
  /// machine is 0–200 KB; on a loaded one it reached about 1 MB once, from threads the hook
  /// executor adds when a job stalls (each brings a stack and a malloc arena, a one-off cost, not
  /// a per-line one). The bound catches any leak of 20 bytes or more per line (1.6 MB here) and
  /// the old unbounded input buffer (6.4 MB measured); the profiler's aggregates are checked
  /// exactly by `profileCountsEachEventAndHookOnce` and `ProfilerTests`.
  static let allowedGrowthKB = 1_536

  /// A line longer than `InputLines.longestLine` (1 MiB) is dropped as it is read and reported
  /// in its place; the lines around it are served. Before, the host kept all of it: `apiary
  /// run < /dev/zero` (no newline, ever) grew to 2.8 GB in 8 seconds.
  @Test func aLineTooLongToKeepIsReportedAndTheNextOneServed() throws {
    let long = String(repeating: "x", count: 3 << 20)
    let result = try HostProcess.run(
      ["run", "--manifests", HostProcess.manifests, "--quiet"],
      input: ":modules extra\n\(long)\r\n:help x\n")
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.filter { $0.hasPrefix("error: ") } == [
        "error: usage: :modules",
        "error: line 2 is longer than 1048576 bytes; ignored",
      ], "\(result.stdout.prefix(300))")
    #expect(lines.contains("  :help                              this list"))
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
  func hundredThousandMixedLinesKeepMemoryFlat() throws {
    let directory = HostProcess.temporaryDirectory()
    let host = try HostProcess.Running(
      ["run", "--manifests", HostProcess.manifests, "--quiet"], in: directory)
    let marks = OutputMarks(host, marks: ["event 'soak.warm'", "event 'soak.done'"])
    let feed = host.input.fileHandleForWriting
    func send(_ range: Range<Int>) {
      var text = ""
      for index in range { text += Self.mix[index % Self.mix.count] + "\n" }
      feed.write(Data(text.utf8))
    }

    feed.write(Data("notebook://notes/create?title=milk\n".utf8))
    send(0..<Self.warmUp)
    // `:wait`: the calls in flight finish before the mark, so it marks where the lines end.
    feed.write(Data(":wait\n:post soak.warm\n".utf8))
    #expect(marks.wait(for: "event 'soak.warm'"))
    let warm = try Self.memory(of: host.process.processIdentifier)

    send(Self.warmUp..<Self.total)
    feed.write(Data(":wait\n:post soak.done\n".utf8))
    #expect(marks.wait(for: "event 'soak.done'"))
    let done = try Self.memory(of: host.process.processIdentifier)

    try host.input.fileHandleForWriting.close()
    host.process.waitUntilExit()
    #expect(host.process.terminationStatus == 0, "\(marks.errorTail)")
    let growth = done.rss - warm.rss
    print("soak: VmRSS \(warm.rss) KB after warm-up, \(done.rss) KB at the end (VmHWM \(done.hwm))")
    #expect(
      growth <= Self.allowedGrowthKB,
      "resident memory grew by \(growth) KB over \(Self.total - Self.warmUp) lines")
  }

  @Test func profileCountsEachEventAndHookOnce() throws {
    let result = try HostProcess.run(
      ["run", "--manifests", HostProcess.manifests, "--quiet", "--profile-json"],
      input: ":post soak.tick\n:post soak.tick\n:post soak.tick\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(#""subject":"soak.tick","phase":"event","count":3"#))
    #expect(result.stdout.contains(#""subject":"store","phase":"start","count":1"#))
  }

  /// VmRSS and VmHWM of a process, in KB, from `/proc/PID/status`.
  static func memory(of pid: Int32) throws -> (rss: Int, hwm: Int) {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    func field(_ name: String) -> Int {
      let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
      return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    return (field("VmRSS"), field("VmHWM"))
  }
}

/// Drains a host's standard output and standard error on threads of their own, so the host never
/// blocks writing, keeping only their ends; a test waits for a text on standard output.
final class OutputMarks: @unchecked Sendable {
  // Sendable: the stored tails and `ended` are only read or written with `condition` locked.
  private let condition = NSCondition()
  private var outputTail = ""
  private var marks: Set<String> = []
  private var ended = false
  private var storedErrorTail = ""

  init(_ host: HostProcess.Running, marks: Set<String>) {
    self.marks = marks
    let output = host.output.fileHandleForReading
    let error = host.error.fileHandleForReading
    Thread { self.drain(output, isOutput: true) }.start()
    Thread { self.drain(error, isOutput: false) }.start()
  }

  /// The last characters of standard error.
  var errorTail: String {
    condition.lock()
    defer { condition.unlock() }
    return storedErrorTail
  }

  /// Blocks until `text` (one of the marks) has appeared on standard output; false if the output
  /// ended first.
  func wait(for text: String) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while marks.contains(text) {
      if ended { return false }
      condition.wait()
    }
    return true
  }

  private func drain(_ handle: FileHandle, isOutput: Bool) {
    while true {
      let chunk = handle.availableData
      condition.lock()
      defer {
        condition.broadcast()
        condition.unlock()
      }
      guard !chunk.isEmpty else {
        if isOutput { ended = true }
        return
      }
      let text = String(decoding: chunk, as: UTF8.self)
      if isOutput {
        // Looked for before the tail is cut: lines after a mark may come in the same chunk.
        let seen = outputTail + text
        marks = marks.filter { !seen.contains($0) }
        outputTail = String(seen.suffix(200))
      } else {
        storedErrorTail = String((storedErrorTail + text).suffix(500))
      }
    }
  }
}
