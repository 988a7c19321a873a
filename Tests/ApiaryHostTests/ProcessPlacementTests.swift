import Foundation
import Testing

/// Process placement through the `apiary` binary: the sample's `search` module in a child
/// process (`apiary child`), and a module written in Python speaking the wire protocol
/// (`Tests/Fixtures/ProcessPlacement`).
@Suite struct ProcessPlacementTests {
  static let fixtures = HostProcess.root.appendingPathComponent("Tests/Fixtures/ProcessPlacement")

  static let python: String? = ProcessInfo.processInfo.environment["PATH"]?
    .split(separator: ":").map { "\($0)/python3" }
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  /// The sample manifests with `search` placed in a child process (`search.json`), plus the
  /// Python greeter when asked.
  static func manifests(greeter: String? = nil) throws -> String {
    let directory = HostProcess.temporaryDirectory().appendingPathComponent("Manifests")
    let files = FileManager.default
    try files.copyItem(atPath: SamplePlugins.manifests, toPath: directory.path)
    let modules = directory.appendingPathComponent("modules")
    try files.removeItem(at: modules.appendingPathComponent("search.plist"))
    let debug = SamplePlugins.package.directory.appendingPathComponent(".build/debug/").path + "/"
    let search = try String(
      contentsOf: fixtures.appendingPathComponent("search.json"), encoding: .utf8)
    try search.replacingOccurrences(of: "../../Plugins/Notebook/.build/release/", with: debug)
      .write(to: modules.appendingPathComponent("search.json"), atomically: true, encoding: .utf8)
    if let greeter {
      try greeter.write(
        to: modules.appendingPathComponent("greeter.json"), atomically: true, encoding: .utf8)
      try files.copyItem(
        at: fixtures.appendingPathComponent("greeter.py"),
        to: modules.appendingPathComponent("greeter.py"))
    }
    return directory.path
  }

  static var greeter: String {
    get throws {
      try String(contentsOf: fixtures.appendingPathComponent("greeter.json"), encoding: .utf8)
    }
  }

  /// A process-placed module's library is gated as its child gates it, alone: a copy of the
  /// search plugin without the contract library it needs beside it passed `validate` (the host
  /// had NotebookKit loaded for its other plugins), and then failed the boot in the child.
  @Test func aProcessPlacedLibraryIsGatedAsItsChildLoadsIt() throws {
    let directory = try Self.manifests()
    let lone = HostProcess.temporaryDirectory().appendingPathComponent("libSearchPlugin.so")
    try FileManager.default.copyItem(
      at: SamplePlugins.package.library("SearchPlugin"), to: lone)
    let file = URL(fileURLWithPath: directory).appendingPathComponent("modules/search.json")
    let debug = SamplePlugins.package.directory.appendingPathComponent(".build/debug/").path + "/"
    try String(contentsOf: file, encoding: .utf8)
      .replacingOccurrences(of: debug + "libSearchPlugin.so", with: lone.path)
      .write(to: file, atomically: true, encoding: .utf8)
    let result = try HostProcess.run(["validate", directory])
    #expect(result.status == 1, "\(result.stdout)")
    #expect(
      result.stdout.contains("plugin refused: SearchPlugin: library '\(lone.path)'"),
      "\(result.stdout)")
    #expect(result.stdout.contains("NotebookKit"), "\(result.stdout)")
  }

  @Test func aSwiftPluginInAChildServesRemoteCallsAndEventsAndCallsBack() throws {
    let directory = try Self.manifests()
    let data = HostProcess.temporaryDirectory()  // both runs share the data directory
    // A note made before boot: `search` lists it through the host's `notes` target in `start`.
    let first = try HostProcess.run(
      ["run", directory, "--quiet"], input: "notebook://notes/create?title=early%20bird\n",
      in: data)
    #expect(first.status == 0, "\(first.stderr)")
    let result = try HostProcess.run(
      ["run", directory, "--quiet"],
      input: HostProcess.oneByOne(
        """
        notebook://search/query?q=early
        notebook://notes/create?title=hello%20world
        notebook://search/query?q=hello
        notebook://search/query?q=hello&limit=x
        :modules
        """), in: data)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 8, "\(result.stdout)")
    guard lines.count == 8 else { return }
    #expect(lines[0] == #"[{"id":1,"title":"early bird"}]"#)
    // The host's `note.saved` reached the child's subscription.
    #expect(lines[2] == #"[{"id":2,"title":"hello world"}]"#)
    // The host applies the URL policy before anything crosses.
    #expect(lines[3].hasPrefix("error: search/query: parameter 'limit'"))
    #expect(lines[7].hasPrefix("search       running"))
  }

  /// A child that prints a line that is not a frame and exits fails the boot with what it
  /// printed, not with "the stream ended inside a frame". It exits once it read the first line
  /// of the handshake, so the host's write cannot find its input closed first.
  @Test func aChildPrintingNoFrameSaysWhatItPrinted() throws {
    let directory = try Self.shellApplication("echo hello; read line")
    let result = try HostProcess.run(["run", directory.path, "--quiet"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "failed in setUp: module 'hello' (pid "), "\(result.stderr)")
    #expect(
      result.stderr.contains("): broke the wire protocol (malformed frame header: hello); ended"),
      "\(result.stderr)")
  }

  /// A child that prints a line that is not a frame and exits without reading: `apiary call`
  /// says what it printed every time. When the child was gone before the host wrote the
  /// handshake, it said "write failed: Broken pipe" (2 runs in 3 with the CPUs busy).
  @Test func aChildPrintingNoFrameAndExitingAtOnceSaysWhatItPrinted() throws {
    let directory = try Self.shellApplication("echo hello")
    for _ in 0..<50 {
      let result = try HostProcess.run(["call", "hello://hello/x", directory.path])
      #expect(result.status == 1, "\(result.stderr)")
      #expect(
        result.stderr.contains("): broke the wire protocol (malformed frame header: hello); ended"),
        "\(result.stderr)")
    }
  }

  /// An application of one module, `hello`, placed in a child process that runs `script`.
  private static func shellApplication(_ script: String) throws -> URL {
    try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Hello", "scheme": "hello"}"#,
      "modules/hello.json": """
      {"schemaVersion": 1, "modules": [{"name": "hello", "type": "Shell.Hello",
       "placement": "process", "command": ["/bin/sh", "-c", "\(script)"]}]}
      """,
    ])
  }

  /// `apiary child` on a connection whose first frame does not parse reports the broken
  /// connection and exits 1; the host closing its input (end of input) is the clean end, 0.
  @Test func aChildOnABrokenConnectionSaysSoAndFails() throws {
    let directory = try Self.manifests()
    let file = directory + "/modules/search.json"
    let broken = try HostProcess.run(
      ["child", "search", file, directory], input: "garbage\r\n\r\n")
    #expect(broken.status == 1, "\(broken.stderr)")
    #expect(broken.stderr.contains("the connection to the host broke"), "\(broken.stderr)")
    let closed = try HostProcess.run(["child", "search", file, directory], input: "")
    #expect(closed.status == 0, "\(closed.stderr)")
    #expect(!closed.stderr.contains("broke"), "\(closed.stderr)")
  }

  /// A module file the child cannot read gives its problem alone: it also said "plugin
  /// refused: FILE: no module named 'search'", which sends the reader looking for a typo.
  @Test func aChildWhoseModuleFileIsBrokenSaysOnlyWhy() throws {
    let directory = try Self.manifests()
    let missing = try HostProcess.run(["child", "search", directory + "/gone.json", directory])
    #expect(missing.status == 1)
    #expect(
      missing.stderr
        == "error: 1 manifest problem:\n  \(directory)/gone.json: cannot read this file: No such "
        + "file or directory\n")
    // A readable file without the module still says so.
    let other = try HostProcess.run(
      ["child", "search", directory + "/modules/notes.json", directory])
    #expect(other.status == 1)
    #expect(
      other.stderr
        == "error: plugin refused: \(directory)/modules/notes.json: no module named 'search'\n")
  }

  /// A host with a child ignores `SIGPIPE`, so a result written to a pipe that nobody reads
  /// fails with `EPIPE`: the host says so in one line and exits with 1, as other Unix tools do.
  /// (Foundation's `FileHandle.write`, which wrote it before, trapped on that error.) The pipe's
  /// read end is closed before the host starts, so no write can come first.
  @Test func aResultForAClosedPipeFailsWithoutACrash() throws {
    let directory = try Self.manifests()
    let process = Process()
    process.executableURL = HostProcess.executable
    process.arguments = ["call", "notebook://notes/list", "--manifests", directory]
    process.currentDirectoryURL = HostProcess.temporaryDirectory()
    let output = Pipe()
    let error = Pipe()
    try output.fileHandleForReading.close()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit, "\(stderr)")
    #expect(process.terminationStatus == 1, "\(stderr)")
    #expect(
      stderr.split(separator: "\n").filter { $0.hasPrefix("error") } == [
        "error: could not write the result: Broken pipe"
      ], "\(stderr)")
  }

  @Test func inspectShowsTheProxyAndValidateAcceptsThePlacement() throws {
    let directory = try Self.manifests()
    let validate = try HostProcess.run(["validate", directory])
    #expect(validate.status == 0, "\(validate.stdout)")
    let inspect = try HostProcess.run(["inspect", directory])
    #expect(inspect.status == 0, "\(inspect.stderr)")
    #expect(inspect.stdout.contains("search (module search, ApiaryProcess.ProcessTarget)"))
    #expect(inspect.stdout.contains("note.saved     search"))
    let plan = try HostProcess.run(["plan", directory, "--format", "json"])
    let document = try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8))
    let modules = (document as? [String: Any])?["modules"] as? [[String: Any]] ?? []
    let placements = Dictionary(
      uniqueKeysWithValues: modules.compactMap { module in
        (module["name"] as? String).map { ($0, module["placement"] as? String ?? "") }
      })
    #expect(
      placements == ["logging": "host", "store": "host", "notes": "host", "search": "process"])
  }

  @Test func validateReportsADependencyOnServicesInAChild() throws {
    let directory = try Self.manifests()
    let logging = URL(fileURLWithPath: directory).appendingPathComponent("modules/logging.json")
    let text = try String(contentsOf: logging, encoding: .utf8)
    try text.replacingOccurrences(
      of: #""name": "logging","#, with: #""name": "logging", "placement": "process","#
    ).write(to: logging, atomically: true, encoding: .utf8)
    let result = try HostProcess.run(["validate", directory])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "modules/notes.json:4:5 modules[0].dependencies[1]: 'notes' depends on 'logging', which "
          + "runs in a child process (\"placement\": \"process\"); its services "
          + "(NotebookKit.Logger) cannot be resolved outside it"), "\(result.stdout)")
  }

  @Test(.enabled(if: python != nil, "python3 is not installed; CI installs it"))
  func aPythonModuleServesCallsAndEventsBothWays() throws {
    let directory = try Self.manifests(greeter: try Self.greeter)
    let result = try HostProcess.run(
      ["run", directory, "--quiet"],
      input: HostProcess.oneByOne(
        """
        notebook://greeter/greet?name=Ada
        notebook://search/query?q=hello
        :post greet.requested name=Bo
        notebook://greeter/countNotes
        notebook://greeter/fail?why=testing
        """))
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    // The host applies the URL policy: `countNotes` is local-only.
    #expect(lines.count == 5)
    #expect(lines.dropFirst(3).first?.hasPrefix("error: greeter/countNotes: refused") == true)
    #expect(
      lines.prefix(3) + lines.dropFirst(4) == [
        #""hello, Ada""#,
        // `greet` posted `note.saved` in the host, where `search` indexed it.
        #"[{"id":1001,"title":"hello, Ada"}]"#,
        "event 'greet.requested': handled by [greeter]",
        "error: greeter/fail: greeter refuses: testing",
      ], "\(result.stdout)")
    #expect(result.stderr.contains("greet.requested for Bo"))
  }

  @Test(.enabled(if: python != nil, "python3 is not installed; CI installs it"))
  func aProcessPlacedModuleLoadsAndUnloadsWhileTheHostRuns() throws {
    let directory = try Self.manifests()
    let extra = HostProcess.temporaryDirectory()
    try Self.greeter.write(
      to: extra.appendingPathComponent("greeter.json"), atomically: true, encoding: .utf8)
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("greeter.py"),
      to: extra.appendingPathComponent("greeter.py"))
    let result = try HostProcess.run(
      ["run", directory, "--quiet"],
      input: """
        :load \(extra.path)/greeter.json
        notebook://greeter/greet?name=Cy
        :remove greeter
        notebook://greeter/greet?name=Cy
        """)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(result.stdout)")
    guard lines.count == 4 else { return }
    #expect(lines[0] == "loaded 'greeter'")
    #expect(lines[1] == #""hello, Cy""#)
    #expect(lines[2] == "removed 'greeter'")
    #expect(lines[3].hasPrefix("error: "))
  }

  @Test(.enabled(if: python != nil, "python3 is not installed; CI installs it"))
  func aChildThatDiesFailsItsCallsAndTheHostGoesOn() throws {
    let directory = try Self.manifests(greeter: try Self.greeter)
    let result = try HostProcess.run(
      ["run", directory, "--quiet"],
      input: HostProcess.oneByOne(
        """
        notebook://greeter/crash
        notebook://greeter/greet
        notebook://notes/list
        """))
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(result.stdout)")
    guard lines.count == 3 else { return }
    #expect(lines[0].hasPrefix("error: module 'greeter' (pid "))
    #expect(lines[0].hasSuffix("): killed by signal 11 (SIGSEGV)"))
    // The module failed (supervision's restart policy decides what follows): no answer.
    #expect(lines[1].hasPrefix("error: "))
    #expect(lines[2] == "[]")
  }

  @Test(.enabled(if: python != nil, "python3 is not installed; CI installs it"))
  func anOptionalChildThatExitsAtOnceFailsAloneWithItsStatus() throws {
    let broken = try Self.greeter.replacingOccurrences(
      of: #""command": ["python3", "./greeter.py"],"#,
      with: #""command": ["python3", "-c", "import sys; sys.exit(3)"], "optional": true,"#)
    let directory = try Self.manifests(greeter: broken)
    let result = try HostProcess.run(["run", directory, "--quiet"], input: ":modules\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("greeter      failed in setUp: module 'greeter' (pid "))
    #expect(result.stdout.contains("): exited with status 3"))
    #expect(result.stdout.contains("notes        running"))
  }

  /// With standard output and error on one pipe (`2>&1 | tee`), a result is never written into
  /// the middle of a long line from a child's standard error: a line longer than the pipe
  /// takes is written in parts, and about one result in fifty landed between two of them.
  @Test(.enabled(if: python != nil, "python3 is not installed; CI installs it"))
  func resultsAndAChildsLongLinesShareAPipeWithoutCuttingEachOther() throws {
    let greeter = Self.fixtures.appendingPathComponent("greeter.py").path
    let flooding = try Self.greeter.replacingOccurrences(
      of: #""command": ["python3", "./greeter.py"],"#,
      with: #""command": ["python3", "-c", "import sys, threading\n"#
        + #"def flood():\n    while True: sys.stderr.write('y' * 100000 + '\\n')\n"#
        + #"threading.Thread(target=flood, daemon=True).start()\n"#
        + #"exec(open('\#(greeter)').read())"],"#)
    let directory = try Self.manifests(greeter: flooding)
    let (process, input, both, _) = try HostProcess.start(
      ["run", directory, "--quiet"], mergingError: true)
    let calls = (1...1000).map { "notebook://greeter/greet?name=n\($0)\n" }.joined()
    input.fileHandleForWriting.write(Data(calls.utf8))
    try input.fileHandleForWriting.close()
    let text = String(decoding: both.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let lines = Set(text.split(separator: "\n").filter { !$0.contains("yyy") })
    let cut = (1...1000).filter { !lines.contains(#""hello, n\#($0)""#) }
    #expect(cut.isEmpty, "results not on a line of their own: \(cut)")
  }

  /// Limits in seconds as large as a manifest accepts (1000000) are served as limits too far to
  /// reach: `healthCheck.intervalSeconds: 1e300` crashed the host at boot ("Double value cannot
  /// be converted to _Int128"), and so did such a `timeout` at the child's end and a backoff at a
  /// restart, before manifests refused more than 1000000 seconds (`TimeBoundsTests`).
  @Test(.enabled(if: python != nil, "python3 is not installed; CI installs it"))
  func hugeLimitsInSecondsAreServedAsForever() throws {
    let huge = try Self.greeter.replacingOccurrences(
      of: #""command": ["python3", "./greeter.py"],"#,
      with: #""command": ["python3", "./greeter.py"], "timeout": 1000000, "#
        + #""healthCheck": {"intervalSeconds": 1000000, "timeoutSeconds": 1000000}, "#
        + #""restart": {"policy": "on-failure", "backoff": {"initialSeconds": 1000000, "#
        + #""maxSeconds": 1000000}},"#)
    let directory = try Self.manifests(greeter: huge)
    let result = try HostProcess.run(
      ["run", directory, "--quiet"],
      input: "notebook://greeter/greet?name=a\n:restart greeter\nnotebook://greeter/greet?name=b\n")
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(result.stdout)")
    #expect(lines.first == #""hello, a""#)
    #expect(lines.dropFirst().first?.hasPrefix("restarted 'greeter': pid ") == true)
    #expect(lines.last == #""hello, b""#)
  }

  /// A call to the target of a module that is not running says why it is not, through `run`
  /// and `call`, not only "is its module loaded?".
  @Test func aCallToAFailedModulesTargetSaysWhyItIsNotRunning() throws {
    let directory = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Quits", "scheme": "quits"}"#,
      "modules/quits.json": """
      {"schemaVersion": 1, "modules": [{"name": "quits", "type": "Shell.Quits",
        "placement": "process", "command": ["/bin/sh", "-c", "read header; exit 3"], "optional": true,
        "targets": [{"name": "quitter", "type": "Shell.Quitter", "actions": [
          {"name": "go", "remote": true}]}]}]}
      """,
    ])
    let why =
      "and no fallback handled the call (module 'quits' failed in setUp: module 'quits' (pid "
    let run = try HostProcess.run(
      ["run", directory.path, "--quiet"], input: "quits://quitter/go\n")
    #expect(
      run.stdout.contains("error: quitter/go: no target 'quitter' (is its module loaded?) " + why))
    #expect(run.stdout.hasSuffix("): exited with status 3)\n"), "\(run.stdout)")
    let call = try HostProcess.run(["call", "quits://quitter/go", directory.path])
    #expect(call.status == 1)
    #expect(call.stderr.contains(why), "\(call.stderr)")
  }
}
