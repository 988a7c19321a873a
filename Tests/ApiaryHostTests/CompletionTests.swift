import Foundation
import Testing

/// `apiary completion` through the binary: the bash script parses, defines the completion and
/// completes commands, options, values and URLs; the zsh script parses when zsh is installed.
@Suite struct CompletionTests {
  /// Runs `script` with bash (or zsh) and returns what it printed.
  static func shell(_ path: String, _ script: String) throws -> HostProcess.Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-c", script]
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return HostProcess.Result(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }

  /// A file holding the output of `apiary completion kind`.
  static func script(_ kind: String) throws -> URL {
    let result = try HostProcess.run(["completion", kind])
    #expect(result.status == 0, "\(result.stderr)")
    let url = HostProcess.temporaryDirectory().appendingPathComponent("apiary.\(kind)")
    try Data(result.stdout.utf8).write(to: url)
    return url
  }

  /// What bash completes for the words of `line` (the last one being completed).
  static func complete(_ line: [String], script: URL) throws -> [String] {
    let binary = HostProcess.executable.deletingLastPathComponent().path
    let words = line.map { "'\($0)'" }.joined(separator: " ")
    let text = line.joined(separator: " ")
    let result = try shell(
      "/bin/bash",
      """
      PATH='\(binary)':"$PATH"; cd '\(HostProcess.root.path)'
      source '\(script.path)'
      COMP_WORDS=(\(words)); COMP_CWORD=\(line.count - 1); COMP_LINE='\(text)'; COMP_POINT=${#COMP_LINE}
      _apiary_complete
      printf '%s\\n' "${COMPREPLY[@]}"
      """)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.split(separator: "\n").map(String.init)
  }

  @Test func bashScriptParsesAndRegistersTheCompletion() throws {
    let script = try Self.script("bash")
    let syntax = try Self.shell("/bin/bash", "bash -n '\(script.path)'")
    #expect(syntax.status == 0, "\(syntax.stderr)")
    let defined = try Self.shell("/bin/bash", "source '\(script.path)' && complete -p apiary")
    #expect(defined.status == 0, "\(defined.stderr)")
    #expect(defined.stdout.contains("-F _apiary_complete apiary"))
  }

  @Test func bashCompletesCommandsOptionsValuesDirectoriesAndURLs() throws {
    let script = try Self.script("bash")
    #expect(try Self.complete(["apiary", "gr"], script: script) == ["graph"])
    #expect(try Self.complete(["apiary", "co"], script: script) == ["completion"])
    let options = try Self.complete(["apiary", "plan", "--"], script: script)
    #expect(options.contains("--format") && options.contains("--manifests"))
    #expect(
      try Self.complete(["apiary", "graph", "--format", ""], script: script) == ["dot", "mermaid"])
    #expect(try Self.complete(["apiary", "plan", "--format", "j"], script: script) == ["json"])
    #expect(try Self.complete(["apiary", "validate", "Manif"], script: script) == ["Manifests"])
    #expect(
      try Self.complete(["apiary", "run", "--manifests", "Manif"], script: script) == ["Manifests"])
    let urls = try Self.complete(["apiary", "call", "notebook://notes/c"], script: script)
    #expect(urls == ["//notes/create"], "the part after the last ':' (bash splits words at ':')")
  }

  @Test func modulesAndURLsComeFromTheManifests() throws {
    let modules = try HostProcess.run(["completion", "modules", HostProcess.manifests])
    #expect(
      modules.stdout.split(separator: "\n") == ["logging", "notes", "search", "store"],
      "declared order")
    let urls = try HostProcess.run(["completion", "urls", HostProcess.manifests])
    #expect(urls.stdout.contains("notebook://notes/create\n"))
    #expect(!urls.stdout.contains("notes/delete"), "local-only actions are not offered")
    let wrong = try HostProcess.run(["completion", "fish"])
    #expect(wrong.status == 2)
    #expect(wrong.stderr.contains("expected bash, zsh, modules or urls, found 'fish'"))
    // Unreadable manifests offer nothing and say why on standard error (the scripts discard it).
    let missing = HostProcess.temporaryDirectory().appendingPathComponent("nowhere").path
    let unreadable = try HostProcess.run(["completion", "modules", missing])
    #expect(unreadable.status == 1)
    #expect(unreadable.stdout.isEmpty)
    #expect(unreadable.stderr.hasPrefix("\(missing): no such directory;"), "\(unreadable.stderr)")
  }

  @Test func zshScriptParses() throws {
    guard
      let zsh = ["/bin/zsh", "/usr/bin/zsh"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else {
      print("skipped: zsh is not installed, so the zsh script's syntax is not checked")
      let script = try Self.script("zsh")
      #expect(try String(contentsOf: script, encoding: .utf8).hasPrefix("#compdef apiary"))
      return
    }
    let script = try Self.script("zsh")
    let syntax = try Self.shell(zsh, "zsh -n '\(script.path)'")
    #expect(syntax.status == 0, "\(syntax.stderr)")
    let loaded = try Self.shell(
      zsh,
      "autoload -Uz compinit && compinit -u && source '\(script.path)' && echo ${_comps[apiary]}")
    #expect(loaded.stdout.contains("_apiary"), "\(loaded.stderr)")
  }
}
