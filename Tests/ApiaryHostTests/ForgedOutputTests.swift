import Foundation
import Testing

/// Text from URLs and modules cannot forge lines: every result, error and log line the host
/// prints stays one line, with control characters escaped.
@Suite struct ForgedOutputTests {
  /// Bytes that must never reach the output raw: C0 controls other than the newline that ends
  /// each line, DEL, and the UTF-8 of NEL (C1), LINE SEPARATOR and PARAGRAPH SEPARATOR.
  static func rawControls(in text: String) -> [String] {
    text.unicodeScalars.filter { scalar in
      (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
        || scalar.value == 0x2028 || scalar.value == 0x2029
    }.map { String(format: "U+%04X", $0.value) }
  }

  @Test func runPrintsOneEscapedLinePerInputAndNoForgedLogLines() throws {
    let input = [
      "notebook://notes/create?title=a%0A%5Binfo%5D%20fake%0D%E2%80%A8%C2%85",
      "notebook://notes/get?id=1%0A%5Bwarning%5D%20forged",
      "notebook://notes/x%0A%5Bwarning%5D%20forged",
      "notebook://search/query?q=a%0Ab",
      ":post ev\u{1B}[2J\r k=v",
    ]
    let result = try HostProcess.run(
      ["run", "--manifests", HostProcess.manifests, "--quiet"],
      input: HostProcess.oneByOne(input.joined(separator: "\n")))
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == input.count, "one line per input: \(result.stdout)")
    #expect(Self.rawControls(in: result.stdout).isEmpty)
    #expect(Self.rawControls(in: result.stderr).isEmpty)
    #expect(lines.first?.contains(#"a\n[info] fake\r\u2028\u0085"#) == true, "\(lines)")
    #expect(lines.dropFirst().first?.contains(#"found '1\n[warning] forged'"#) == true)
    #expect(lines.last?.contains(#"ev\u001B[2J\r"#) == true, "\(lines)")
    // Every line on standard error is a real log line: none starts with the forged text.
    for line in result.stderr.split(separator: "\n") {
      #expect(!line.hasPrefix("[warning] forged") && !line.hasPrefix("[info] fake"), "\(line)")
    }
    #expect(lines.dropFirst(2).first?.contains(#"no action 'x\n[warning] forged'"#) == true)
  }

  @Test func callPrintsItsErrorAsOneLine() throws {
    let result = try HostProcess.run([
      "call", "notebook://notes/get?id=1%0A%5Binfo%5D%20fake", "--manifests",
      HostProcess.manifests,
    ])
    #expect(result.status == 1)
    let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
    #expect(errors == [#"error: notes/get: parameter 'id' expected int, found '1\n[info] fake'"#])
    #expect(!result.stderr.contains("\n[info] fake"))
  }

  /// A newline in manifest text (a JSON `\n` in a module name) or in the directory's name stays
  /// inside its problem's line in every command that reads manifests, as `validate` prints it.
  @Test func manifestTextCannotForgeLines() throws {
    let forged = "ok: application 'Notebook', 4 enabled modules in 5 files"
    let directory = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "A", "modules": ["modules/x.json"]}"#,
      "modules/x.json": #"{"schemaVersion": 1, "modules": [{"name": "x\n"#
        + forged + #"", "type": "X.Y"}]}"#,
    ]).path
    let unnamed = HostProcess.temporaryDirectory().appendingPathComponent("D\nok: fake").path
    try FileManager.default.createDirectory(atPath: unnamed, withIntermediateDirectories: true)
    for arguments in [
      ["validate", directory], ["plan", directory], ["call", "x://y/z", directory],
      ["run", directory], ["plan", unnamed],
    ] {
      let result = try HostProcess.run(arguments)
      #expect(result.status == 1, "\(arguments): \(result.stderr)")
      let output = result.stdout + result.stderr
      #expect(!output.contains("\nok: "), "\(arguments): \(output)")
      #expect(output.contains(#"\nok: "#), "\(arguments): \(output)")
    }
    let graph = try HostProcess.run(["graph", directory, "--format", "mermaid"])
    #expect(!graph.stdout.contains("\nok: "), "\(graph.stdout)")
    #expect(graph.stdout.contains(#"["x\nok: application"#), "\(graph.stdout)")
  }

  /// An activation event's name is manifest text too: the boot plan `plan` and `run` print
  /// keeps a newline in it inside the module's line.
  @Test func anActivationEventCannotForgeABootPlanLine() throws {
    let directory = HostProcess.temporaryDirectory().appendingPathComponent("Manifests")
    try FileManager.default.copyItem(atPath: HostProcess.manifests, toPath: directory.path)
    let search = directory.appendingPathComponent("modules/search.plist")
    let text = try String(contentsOf: search, encoding: .utf8)
    try text.replacingOccurrences(
      of: "<string>note.saved</string>", with: "<string>note.saved&#10;ok: forged</string>"
    ).write(to: search, atomically: true, encoding: .utf8)
    let plan = try HostProcess.run(["plan", directory.path])
    #expect(plan.status == 0, "\(plan.stderr)")
    #expect(!plan.stdout.contains("\nok: forged"), "\(plan.stdout)")
    #expect(plan.stdout.contains(#"event 'note.saved\nok: forged'"#), "\(plan.stdout)")
    let run = try HostProcess.run(["run", directory.path])
    #expect(!run.stderr.contains("\nok: forged"), "\(run.stderr)")
  }
}
