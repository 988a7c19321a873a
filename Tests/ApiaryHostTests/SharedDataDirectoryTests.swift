import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Several `apiary` processes on one data directory, as the README walkthrough runs them.
@Suite struct SharedDataDirectoryTests {
  let directory = HostProcess.temporaryDirectory()
  var data: URL { directory.appendingPathComponent(".apiary-data") }

  @Test func processesWritingAtOnceKeepEveryAcknowledgedNoteUnderDistinctIDs() throws {
    // A small `compactAfter`, so compactions happen while the other processes write too.
    let manifests = try Self.manifests(compactAfter: 7)
    let servers = try (0..<3).map { _ in
      try HostProcess.start(["run", "--quiet", "--manifests", manifests], in: directory)
    }
    let outputs = servers.map { LineReader($0.output.fileHandleForReading) }
    // Each `run` has the store open and has answered before the others write.
    var acknowledged: [Note] = []
    for (index, server) in servers.enumerated() {
      server.input.fileHandleForWriting.write(Self.creates("run\(index)", 0..<10))
      acknowledged += try outputs[index].lines(10).map(Self.note)
    }
    // While each `run` serves 200 more creates, six `apiary call` processes create at once.
    for (index, server) in servers.enumerated() {
      server.input.fileHandleForWriting.write(Self.creates("run\(index)", 10..<210))
    }
    let calls = try (0..<6).map { index in
      try HostProcess.start(
        ["call", "notebook://notes/create?title=call%20\(index)", "--manifests", manifests],
        in: directory)
    }
    for call in calls {
      let stdout = call.output.fileHandleForReading.readDataToEndOfFile()
      let stderr = call.error.fileHandleForReading.readDataToEndOfFile()
      call.process.waitUntilExit()
      #expect(call.process.terminationStatus == 0, "\(String(decoding: stderr, as: UTF8.self))")
      acknowledged.append(try Self.note(String(decoding: stdout, as: UTF8.self)))
    }
    for output in outputs { acknowledged += try output.lines(200).map(Self.note) }
    // A `run` sees what the other processes wrote.
    servers[0].input.fileHandleForWriting.write(Data("notebook://notes/list\n".utf8))
    let listedByRun = try Self.notes(try outputs[0].lines(1)[0])
    for server in servers {
      try server.input.fileHandleForWriting.close()
      server.process.waitUntilExit()
    }

    #expect(acknowledged.count == 636)
    #expect(Set(acknowledged.map(\.id)).count == acknowledged.count, "ids are distinct")
    #expect(listedByRun == acknowledged.sorted { $0.id < $1.id })
    let listed = try HostProcess.run(
      ["call", "notebook://notes/list", "--manifests", manifests], in: directory)
    #expect(try Self.notes(listed.stdout) == listedByRun)
    #expect(try Self.leftoverFiles(in: data).isEmpty)
  }

  @Test func killingAWriterMidStreamLeavesEveryAcknowledgedNoteReadable() throws {
    let manifests = try Self.manifests(compactAfter: 5)
    let server = try HostProcess.start(["run", "--quiet", "--manifests", manifests], in: directory)
    let output = LineReader(server.output.fileHandleForReading)
    server.input.fileHandleForWriting.write(Self.creates("note", 0..<400))
    var acknowledged = try output.lines(20).map(Self.note)
    kill(server.process.processIdentifier, SIGKILL)
    server.process.waitUntilExit()
    // Every complete line it printed was a create that returned, so it was acknowledged.
    acknowledged += try output.remainingCompleteLines().map(Self.note)
    #expect(acknowledged.count < 400, "killed mid-stream")

    let listed = try HostProcess.run(
      ["call", "notebook://notes/list", "--manifests", manifests], in: directory)
    #expect(listed.status == 0, "\(listed.stderr)")
    let notes = try Self.notes(listed.stdout)
    #expect(Set(acknowledged).isSubset(of: Set(notes)), "every acknowledged note survives")
    #expect(Set(notes.map(\.id)).count == notes.count)
    #expect(
      try Self.leftoverFiles(in: data).isEmpty, "opening removed a stopped compaction's files")
    let next = try HostProcess.run(
      ["call", "notebook://notes/create?title=after", "--manifests", manifests], in: directory)
    #expect(try Self.note(next.stdout).id > notes.map(\.id).max() ?? 0)
  }

  @Test func aTornLastRecordIsDroppedByTheNextProcess() throws {
    let manifests = HostProcess.manifests
    _ = try HostProcess.run(
      ["call", "notebook://notes/create?title=kept", "--manifests", manifests], in: directory)
    let journal = data.appendingPathComponent("notes.journal")
    let handle = try FileHandle(forWritingTo: journal)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("0badf00d {\"note\":{\"body\":\"\",\"id\":2,\"pin".utf8))
    try handle.close()
    let created = try HostProcess.run(
      ["call", "notebook://notes/create?title=next", "--manifests", manifests], in: directory)
    #expect(created.status == 0, "\(created.stderr)")
    #expect(try Self.note(created.stdout) == Note(id: 2, title: "next"))
    let journalText = try String(contentsOf: journal, encoding: .utf8)
    #expect(journalText.split(separator: "\n").count == 3 && !journalText.contains("0badf00d"))
  }

  @Test func aDamagedStoreFailsTheBootWithTheFileAndTheCommandThatGetsGoing() throws {
    let manifests = HostProcess.manifests
    _ = try HostProcess.run(
      ["call", "notebook://notes/create?title=kept", "--manifests", manifests], in: directory)
    try Data("garbage".utf8).write(to: data.appendingPathComponent("notes.json"))

    let failed = try HostProcess.run(
      ["call", "notebook://notes/list", "--manifests", manifests], in: directory)
    #expect(failed.status == 1)
    #expect(
      failed.stderr.contains(
        "module 'store' failed in start: .apiary-data/notes.json is damaged: not a note store"),
      "\(failed.stderr)")
    let command = try #require(
      failed.stderr.split(separator: "\n").first { $0.contains("mv ") }?
        .split(separator: ": ").last.map(String.init))
    #expect(command == "mv '.apiary-data/notes.json' '.apiary-data/notes.json.damaged'")

    // Doing what it says gets the application going again, with the journal's notes.
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", command]
    shell.currentDirectoryURL = directory
    try shell.run()
    shell.waitUntilExit()
    let listed = try HostProcess.run(
      ["call", "notebook://notes/list", "--manifests", manifests], in: directory)
    #expect(try Self.notes(listed.stdout) == [Note(id: 1, title: "kept")], "\(listed.stderr)")
  }

  @Test func anOptionalStoreThatIsDamagedLeavesTheRestOfTheApplicationRunning() throws {
    let manifests = try Self.manifests(compactAfter: 1000, optional: true)
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    try Data("garbage".utf8).write(to: data.appendingPathComponent("notes.journal"))
    let result = try HostProcess.run(
      ["run", "--quiet", "--manifests", manifests],
      input: ":modules\nnotebook://diagnostics/metrics\n", in: directory)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains(
        "store        failed in start: .apiary-data/notes.journal is damaged: the first line is not a start record"
      ),
      "\(result.stdout)")
    #expect(result.stdout.contains("mv '.apiary-data/notes.journal'"))
    #expect(result.stdout.contains("notes        skipped"))
    #expect(result.stdout.contains("logging      running"))
    let metrics = result.stdout.split(separator: "\n").last
    #expect(metrics?.hasPrefix("{") == true, "other modules still answer: \(result.stdout)")
  }

  @Test func compactAfterMustBePositive() throws {
    let manifests = try Self.manifests(compactAfter: 0)
    let result = try HostProcess.run(
      ["call", "notebook://notes/list", "--manifests", manifests], in: directory)
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "module 'store' failed in setUp: config of 'store': key 'compactAfter' expected a "
          + "positive integer, found 0"), "\(result.stderr)")
  }

  // MARK: Helpers

  /// What a create printed, or one element of what list printed.
  struct Note: Hashable, Decodable {
    let id: Int
    let title: String
  }

  static func note(_ line: String) throws -> Note {
    try JSONDecoder().decode(Note.self, from: Data(line.utf8))
  }

  static func notes(_ line: String) throws -> [Note] {
    try JSONDecoder().decode([Note].self, from: Data(line.utf8))
  }

  static func creates(_ prefix: String, _ range: Range<Int>) -> Data {
    Data(range.map { "notebook://notes/create?title=\(prefix)%20\($0)\n" }.joined().utf8)
  }

  /// Files in the data directory other than the store's own three.
  static func leftoverFiles(in data: URL) throws -> Set<String> {
    Set(try FileManager.default.contentsOfDirectory(atPath: data.path))
      .subtracting(["notes.json", "notes.journal", "notes.lock"])
  }

  /// A copy of the default application's manifests with the store's config changed.
  static func manifests(compactAfter: Int, optional: Bool = false) throws -> String {
    let copy = HostProcess.temporaryDirectory().appendingPathComponent("Manifests")
    try FileManager.default.copyItem(
      at: HostProcess.root.appendingPathComponent("Manifests"), to: copy)
    let store = copy.appendingPathComponent("modules/store.json")
    var text = try String(contentsOf: store, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "\"compactAfter\": 1000", with: "\"compactAfter\": \(compactAfter)")
    if optional {
      text = text.replacingOccurrences(
        of: "\"async\": true,", with: "\"async\": true, \"optional\": true,")
    }
    try Data(text.utf8).write(to: store)
    return copy.path
  }
}

/// Reads a process's standard output line by line as it arrives.
final class LineReader {
  private let handle: FileHandle
  private var buffer = Data()

  init(_ handle: FileHandle) { self.handle = handle }

  /// The next `count` lines; fails when the output ends first.
  func lines(_ count: Int) throws -> [String] {
    var lines: [String] = []
    while lines.count < count {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
        buffer = Data(buffer[(newline + 1)...])
        continue
      }
      let more = handle.availableData
      guard !more.isEmpty else {
        throw EndOfOutput(expected: count, got: lines)
      }
      buffer.append(more)
    }
    return lines
  }

  /// Every complete line until the output ends; a last line without its newline is left out.
  func remainingCompleteLines() throws -> [String] {
    buffer.append(handle.readDataToEndOfFile())
    let complete = buffer.prefix(through: buffer.lastIndex(of: UInt8(ascii: "\n")) ?? -1)
    return complete.isEmpty
      ? []
      : String(decoding: complete.dropLast(), as: UTF8.self).split(separator: "\n").map(String.init)
  }

  struct EndOfOutput: Error {
    let expected: Int
    let got: [String]
  }
}
