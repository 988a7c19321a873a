import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The default application in `Manifests/`, driven through the `apiary` executable.
@Suite struct SampleApplicationTests {
  @Test func runBootsServesURLsFromStandardInputAndTearsDownInReverse() throws {
    let input = """
      notebook://notes/create?title=Buy%20milk&pinned=true
      notebook://notes/create?title=Call%20mum
      notebook://search/query?q=milk
      notebook://notes/delete?id=1
      notebook://notes/get?id=oops
      notebook://nowhere/thing
      other://notes/list
      :post note.saved
      :modules

      """
    let result = try HostProcess.run(
      ["run", HostProcess.manifests], input: HostProcess.oneByOne(input))
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(lines[0].contains("\"title\":\"Buy milk\""), "\(lines)")
    #expect(lines[0].contains("\"pinned\":true"))
    #expect(lines[1].contains("\"id\":2"))
    #expect(lines[2].contains("Buy milk"))
    #expect(!lines[2].contains("Call mum"))
    #expect(
      lines[3].hasPrefix("error:") && lines[3].contains("remote"), "local-only refused: \(lines[3])"
    )
    #expect(lines[4].hasPrefix("error:") && lines[4].contains("id"), "bad int refused: \(lines[4])")
    #expect(lines[5].hasPrefix("error:") && lines[5].contains("nowhere"), "not found: \(lines[5])")
    #expect(
      lines[6].hasPrefix("error:") && lines[6].contains("scheme"), "wrong scheme: \(lines[6])")
    #expect(lines[7].contains("ignored by [search]"), "payload without note: \(lines[7])")
    #expect(result.stdout.contains("search       running"))

    // The timeline on standard error shows start order and exact reverse teardown.
    let stderr = result.stderr
    let tearDowns = stderr.split(separator: "\n").filter { $0.contains(" tearDown ") }
      .compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) }
    #expect(tearDowns == ["search", "notes", "store", "logging"], "\(stderr)")
  }

  /// The notes module checks its config at set-up: a wrong `maxTitleLength` fails the boot,
  /// naming the module, the phase and the key. It failed the first call that created a note.
  @Test func aWrongConfigValueFailsTheBootAtSetUp() throws {
    let copy = HostProcess.temporaryDirectory().appendingPathComponent("Manifests")
    try FileManager.default.copyItem(at: URL(fileURLWithPath: HostProcess.manifests), to: copy)
    let notes = copy.appendingPathComponent("modules/notes.json")
    let text = try String(contentsOf: notes, encoding: .utf8)
    try text.replacingOccurrences(of: "\"maxTitleLength\": 120", with: "\"maxTitleLength\": \"x\"")
      .write(to: notes, atomically: true, encoding: .utf8)
    let result = try HostProcess.run(["run", "--quiet", copy.path])
    #expect(result.status != 0, "\(result.stdout)")
    #expect(
      result.stderr.contains(
        "module 'notes' failed in setUp: config of 'notes': key 'maxTitleLength' expected "
          + "integer, found string"),
      "\(result.stderr)")
  }

  /// A pair may have an empty value (`k=`); one without a key or `=` is refused
  /// (`PostCommandTests`).
  @Test func postTakesPayloadPairsWithAnEmptyValue() throws {
    let input = ":post custom.thing k=v flag= e==\n:modules\n"
    let result = try HostProcess.run(
      ["run", HostProcess.manifests, "--quiet"], input: HostProcess.oneByOne(input))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.hasPrefix(
        "event 'custom.thing': handled by []; no module subscribes to it\n"),
      "\(result.stdout)")
    #expect(result.stdout.contains("notes        running"))
  }

  @Test func callPerformsOneRemoteCallAndPrintsJSON() throws {
    let directory = HostProcess.temporaryDirectory()
    let created = try HostProcess.run(
      [
        "call", "notebook://notes/create?title=Hello&body=first%20note", "--manifests",
        HostProcess.manifests,
      ],
      in: directory)
    #expect(created.status == 0, "\(created.stderr)")
    #expect(created.stdout.contains("\"title\":\"Hello\""), "\(created.stdout)")
    // The store persisted it in the data directory; a second process sees it.
    let listed = try HostProcess.run(
      ["call", "notebook://notes/list", HostProcess.manifests], in: directory)
    #expect(listed.stdout.contains("first note"))
    let refused = try HostProcess.run(
      ["call", "notebook://notes/delete?id=1", "--manifests", HostProcess.manifests], in: directory)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("remote"))
    let malformed = try HostProcess.run(["call", "not a url", "--manifests", HostProcess.manifests])
    #expect(malformed.status == 1)
    #expect(malformed.stderr.contains("error:"))
    // An error the action threw follows the target and action it came from.
    let missing = try HostProcess.run(
      ["call", "notebook://notes/get?id=99", "--manifests", HostProcess.manifests], in: directory)
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("error: notes/get: no note with id 99"), "\(missing.stderr)")
  }

  /// A result `apiary call` cannot write (standard output on a full device) fails the call
  /// with one line on standard error, as other Unix tools do; JSON output too.
  @Test func aResultThatCannotBeWrittenFailsTheCall() throws {
    for format in ["text", "json"] {
      let (status, stderr) = try Self.runWritingToAFullDevice([
        "call", "notebook://notes/list", "--manifests", HostProcess.manifests, "--format", format,
      ])
      #expect(status == 1, "\(stderr)")
      #expect(
        stderr.split(separator: "\n").filter { $0.hasPrefix("error") } == [
          "error: could not write the result: No space left on device"
        ], "\(stderr)")
    }
  }

  /// Every command that prints a result fails as `call` does when it cannot write it
  /// (`apiary validate > /dev/full` exited 0).
  @Test func everyCommandFailsWhenItsResultCannotBeWritten() throws {
    let manifests = HostProcess.manifests
    for arguments in [
      ["validate", manifests], ["validate", manifests, "--format", "json"], ["plan", manifests],
      ["inspect", manifests], ["graph", manifests], ["generate", manifests],
      ["completion", "bash"], ["help"], ["plan", "--help"],
    ] {
      let (status, stderr) = try Self.runWritingToAFullDevice(arguments)
      #expect(status == 1, "\(arguments): \(stderr)")
      #expect(
        stderr.split(separator: "\n").filter { $0.hasPrefix("error") } == [
          "error: could not write the result: No space left on device"
        ], "\(arguments): \(stderr)")
    }
  }

  /// Runs `apiary arguments…` with standard output on `/dev/full`; its status and standard error.
  private static func runWritingToAFullDevice(_ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = HostProcess.executable
    process.arguments = arguments
    process.currentDirectoryURL = HostProcess.temporaryDirectory()
    let error = Pipe()
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, stderr)
  }

  /// Standard output closed by its reader (`apiary run | head -1`): results are dropped, and
  /// at the end of input every module is still torn down. The first result killed the host
  /// (SIGPIPE, status 141), without shutting anything down, unless it had a child process.
  @Test func aClosedStandardOutputStillShutsDown() throws {
    let process = Process()
    process.executableURL = HostProcess.executable
    process.arguments = ["run", "--manifests", HostProcess.manifests]
    process.currentDirectoryURL = HostProcess.temporaryDirectory()
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    try output.fileHandleForReading.close()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    input.fileHandleForWriting.write(Data("notebook://notes/list\n:modules\n".utf8))
    try input.fileHandleForWriting.close()
    let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit, "\(stderr)")
    #expect(process.terminationStatus == 0, "\(stderr)")
    #expect(stderr.contains("end of input: shutting down"), "\(stderr)")
    #expect(stderr.split(separator: "\n").filter { $0.contains(" tearDown ok") }.count == 3)
  }

  @Test func interruptTearsDownInReverseAndExitsZero() throws {
    let running = try HostProcess.start(["run", "--manifests", HostProcess.manifests])
    // Wait for the ready line, then interrupt as Ctrl-C would.
    var seen = Data()
    let deadline = Date().addingTimeInterval(30)
    while !String(decoding: seen, as: UTF8.self).contains("ready:"), Date() < deadline {
      seen.append(running.error.fileHandleForReading.availableData)
    }
    kill(running.process.processIdentifier, SIGINT)
    seen.append(running.error.fileHandleForReading.readDataToEndOfFile())
    running.process.waitUntilExit()
    let stderr = String(decoding: seen, as: UTF8.self)
    #expect(running.process.terminationStatus == 0, "\(stderr)")
    #expect(stderr.contains("signal 2: shutting down"))
    let tearDowns = stderr.split(separator: "\n").filter { $0.contains(" tearDown ") }
      .compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) }
    // `search` is lazy and nothing used it: never set up, nothing to tear down.
    #expect(tearDowns == ["notes", "store", "logging"], "\(stderr)")
    #expect(!stderr.contains("search       setUp"), "\(stderr)")
  }

  @Test func inspectListsBindingsTargetsAndEvents() throws {
    let result = try HostProcess.run(
      ["inspect", HostProcess.manifests], in: HostProcess.temporaryDirectory())
    #expect(result.status == 0, "\(result.stderr)")
    for expected in [
      "NotebookKit.NoteStore [singleton", "NotebookKit.Logger [singleton", "owner store",
      "create(title: string", "[remote]", "delete(id: int) -> object [local]", "query(q: string",
      "note.saved     search",
    ] {
      #expect(result.stdout.contains(expected), "inspect shows \(expected)")
    }
  }

  /// A fallback target no module declares gets a note (it may be registered in code, so it is
  /// not a problem): a typo showed only as "no fallback handled the call" on the first call.
  @Test func aFallbackTargetNoModuleDeclaresGetsANote() throws {
    let copy = HostProcess.temporaryDirectory().appendingPathComponent("Manifests")
    try FileManager.default.copyItem(at: URL(fileURLWithPath: HostProcess.manifests), to: copy)
    let app = copy.appendingPathComponent("app.json")
    try String(contentsOf: app, encoding: .utf8)
      .replacingOccurrences(of: #""target": "diagnostics""#, with: #""target": "diagnostcs""#)
      .write(to: app, atomically: true, encoding: .utf8)
    let result = try HostProcess.run(["validate", copy.path])
    #expect(result.status == 0, "\(result.stdout)")
    #expect(
      result.stderr.contains(
        "note: the application's fallback names target 'diagnostcs', which no module declares "
          + "(did you mean 'diagnostics'?)"), "\(result.stderr)")
  }

  /// `generate` reads the manifests alone: a plugin library that is missing (not built yet)
  /// still gets its target's client. The search client was left out, and the command said ok.
  @Test func generateNeedsNoBuiltPlugin() throws {
    let copy = HostProcess.temporaryDirectory().appendingPathComponent("Manifests")
    try FileManager.default.copyItem(at: URL(fileURLWithPath: HostProcess.manifests), to: copy)
    for name in try FileManager.default.contentsOfDirectory(atPath: copy.path + "/modules") {
      let file = copy.appendingPathComponent("modules/\(name)")
      let text = try String(contentsOf: file, encoding: .utf8)
      try text.replacingOccurrences(of: "libSearchPlugin.so", with: "libNotBuilt.so")
        .write(to: file, atomically: true, encoding: .utf8)
    }
    let result = try HostProcess.run(["generate", copy.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("struct SearchClient"), "\(result.stdout)")
  }

  @Test func generatedClientsAreUpToDate() throws {
    let result = try HostProcess.run(["generate", HostProcess.manifests])
    #expect(result.status == 0, "\(result.stderr)")
    let committed = try String(
      contentsOf: HostProcess.root.appendingPathComponent(
        "Plugins/NotebookKit/Sources/NotebookKit/Generated/MediatorClients.swift"),
      encoding: .utf8)
    #expect(
      result.stdout == committed,
      "run `apiary generate --output Plugins/NotebookKit/Sources/NotebookKit/Generated/MediatorClients.swift`"
    )
  }
}
