import Foundation
import Testing

/// Plugin libraries the load gate must refuse, each named with the file and the field, through
/// the `apiary` executable; and the failure rules: a refused required plugin fails the boot, a
/// refused optional one is marked failed and its dependents skipped while the others run.
@Suite struct PluginGateTests {
  /// A built sample plugin library.
  static func library(_ name: String) -> URL {
    _ = SamplePlugins.manifests
    return SamplePlugins.package.library(name)
  }

  /// An application of one module `greeting` from the search plugin (which needs nothing but
  /// the index it binds itself), its library at `library`, plus `extra` module entries.
  static func application(
    library: String, version: String = "1.0.0", sha256: String? = nil, optional: Bool = false,
    fields: String = "", extra: String = ""
  ) throws -> URL {
    let digest = sha256.map { ", \"sha256\": \"\($0)\"" } ?? ""
    return try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Gate", "scheme": "gate"}"#,
      "modules/a.json": """
      {"schemaVersion": 1, "modules": [
        {"name": "search", "type": "SearchPlugin.SearchModule", "optional": \(optional),
         "library": "\(library)", "version": "\(version)"\(digest)\(fields)}\(extra)
      ]}
      """,
    ])
  }

  /// A copy of `source` in a fresh directory (next to copies of the libraries it needs), with
  /// `find` replaced by `replacement` (same length) in its bytes.
  static func patchedCopy(of source: URL, _ find: String, _ replacement: String) throws -> URL {
    let directory = HostProcess.temporaryDirectory()
    for needed in ["libNotebookKit.so"] {
      try FileManager.default.copyItem(
        at: source.deletingLastPathComponent().appendingPathComponent(needed),
        to: directory.appendingPathComponent(needed))
    }
    var bytes = [UInt8](try Data(contentsOf: source))
    let pattern = Array(find.utf8)
    let new = Array(replacement.utf8)
    #expect(pattern.count == new.count)
    var index = 0
    var replaced = 0
    while index + pattern.count <= bytes.count {
      if bytes[index] == pattern[0], Array(bytes[index..<index + pattern.count]) == pattern {
        bytes.replaceSubrange(index..<index + pattern.count, with: new)
        replaced += 1
        index += pattern.count
      } else {
        index += 1
      }
    }
    #expect(replaced > 0, "\(find) not found in \(source.path)")
    let copy = directory.appendingPathComponent(source.lastPathComponent)
    try Data(bytes).write(to: copy)
    return copy
  }

  static var hostABI: String {
    get throws {
      let facts = try HostProcess.run(["plugin", "host"]).stdout
      let line = facts.split(separator: "\n").first { $0.hasPrefix("abi ") }
      return String(try #require(line).dropFirst(4))
    }
  }

  @Test func acceptedPluginServesCalls() throws {
    let app = try Self.application(library: Self.library("SearchPlugin").path)
    let validate = try HostProcess.run(["validate", app.path])
    #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
    let inspect = try HostProcess.run(["plugin", "inspect", Self.library("SearchPlugin").path])
    #expect(inspect.stdout.contains("plugin SearchPlugin\nversion 1.0.0\n"), "\(inspect.stdout)")
    #expect(inspect.stdout.contains("entry apiary_plugin_entry defined"))
  }

  /// `plugin inspect` shows the processor a library was built for, and why this host's gate
  /// refuses it: a copy marked for ARM showed facts that all looked right (and exit 0), while the
  /// gate refuses it for its `e_machine`; so did a copy built against another ABI.
  @Test func inspectShowsTheMachine() throws {
    let library = Self.library("SearchPlugin")
    let host = try HostProcess.run(["plugin", "inspect", library.path])
    #expect(
      host.stdout.contains("\n# machine x86-64 (EM_X86_64 = 62)\n")
        || host.stdout.contains("\n# machine AArch64 (EM_AARCH64 = 183)\n"), "\(host.stdout)")
    var bytes = [UInt8](try Data(contentsOf: library))
    bytes[18] = 40  // EM_ARM, little-endian e_machine at offset 18
    bytes[19] = 0
    let arm = HostProcess.temporaryDirectory().appendingPathComponent("libSearchPlugin.so")
    try Data(bytes).write(to: arm)
    let inspect = try HostProcess.run(["plugin", "inspect", arm.path])
    #expect(inspect.stdout.contains("\n# machine ARM (EM_ARM = 40)\n"), "\(inspect.stdout)")
    #expect(inspect.stdout.contains("# problem: "), "\(inspect.stdout)")
    #expect(inspect.stdout.contains("field 'e_machine'"), "\(inspect.stdout)")
    #expect(host.status == 0 && inspect.status == 1)
    let abi = try Self.hostABI
    let other = try Self.patchedCopy(of: library, abi, String(repeating: "0", count: abi.count))
    let otherABI = try HostProcess.run(["plugin", "inspect", other.path])
    #expect(otherABI.stdout.contains("field 'abi' at apiary_plugin line 3: expected \(abi)"))
    #expect(otherABI.status == 1)
    // A descriptor with a problem is shown, and the status says so.
    let broken = try Self.patchedCopy(of: library, "\nversion 1.0.0\n", "\nversion x.0.0\n")
    let problem = try HostProcess.run(["plugin", "inspect", broken.path])
    #expect(problem.stdout.contains("# problem: "), "\(problem.stdout)")
    #expect(problem.status == 1)
  }

  @Test func mismatchedABIIsRefusedWithFileFieldExpectedAndFound() throws {
    let abi = try Self.hostABI
    let other = String(repeating: "0", count: abi.count)
    let patched = try Self.patchedCopy(of: Self.library("SearchPlugin"), abi, other)
    let app = try Self.application(library: patched.path)
    for command in [["validate", app.path], ["run", "--manifests", app.path]] {
      let result = try HostProcess.run(command)
      let text = result.stdout + result.stderr
      #expect(result.status == 1, "\(command[0]): \(text)")
      #expect(text.contains(patched.path) && text.contains("abi"), "\(command[0]): \(text)")
      #expect(text.contains(abi) && text.contains(other), "expected and found: \(text)")
    }
  }

  @Test func missingNotELFAndNoDescriptorAreRefused() throws {
    let text = HostProcess.temporaryDirectory().appendingPathComponent("libText.so")
    try Data("not a library".utf8).write(to: text)
    let noDescriptor = Self.library("SearchPlugin").deletingLastPathComponent()
      .appendingPathComponent("libApiary.so")
    for library in ["/nonexistent/libGone.so", text.path, noDescriptor.path] {
      let result = try HostProcess.run(["validate", try Self.application(library: library).path])
      #expect(result.status == 1)
      #expect(result.stdout.hasPrefix("plugin refused: "), "\(result.stdout)")
      #expect(result.stdout.contains(library), "names the file: \(result.stdout)")
    }
  }

  @Test func versionAndDigestMismatchesAreRefused() throws {
    let library = Self.library("SearchPlugin").path
    let version = try HostProcess.run(
      ["validate", try Self.application(library: library, version: "2.0.0").path])
    #expect(version.status == 1)
    #expect(version.stdout.contains("version"), "\(version.stdout)")
    #expect(version.stdout.contains("2.0.0") && version.stdout.contains("1.0.0"))
    let zeros = String(repeating: "0", count: 64)
    let digest = try HostProcess.run(
      ["validate", try Self.application(library: library, sha256: zeros).path])
    #expect(digest.status == 1)
    #expect(digest.stdout.contains("sha256"), "\(digest.stdout)")
  }

  @Test func missingEntrySymbolIsRefused() throws {
    let patched = try Self.patchedCopy(
      of: Self.library("SearchPlugin"), "apiary_plugin_entry", "apiary_plugin_entrx")
    let result = try HostProcess.run(["validate", try Self.application(library: patched.path).path])
    #expect(result.status == 1)
    #expect(result.stdout.contains("apiary_plugin_entry"), "\(result.stdout)")
  }

  @Test func twoPluginsExportingOneTypeAreRefused() throws {
    let copy = try Self.patchedCopy(
      of: Self.library("SearchPlugin"), "SearchPlugin", "SearchPlugin")
    let app = try Self.application(
      library: Self.library("SearchPlugin").path,
      extra: """
        ,
        {"name": "search2", "type": "SearchPlugin.SearchModule", "library": "\(copy.path)",
         "version": "1.0.0"}
        """)
    let result = try HostProcess.run(["validate", app.path])
    #expect(result.status == 1)
    #expect(result.stdout.contains("SearchPlugin.SearchModule"), "\(result.stdout)")
  }

  /// A refused contract library is said once, before the first plugin that needs it, and each
  /// plugin that needs it once: the sample plugins both need NotebookKit (`DT_NEEDED`) and
  /// require it, and an optional module's notice repeated the required module's failure.
  @Test func aRefusedContractLibraryIsSaidOnceAndOnceForEachPlugin() throws {
    let abi = try Self.hostABI
    let kit = try Self.patchedCopy(
      of: Self.library("NotebookKit"), abi, String(repeating: "f", count: abi.count))
    let folder = kit.deletingLastPathComponent()
    for plugin in ["LoggingPlugin", "SearchPlugin"] {
      try FileManager.default.copyItem(
        at: Self.library(plugin), to: folder.appendingPathComponent("lib\(plugin).so"))
    }
    let app = try Self.application(
      library: folder.appendingPathComponent("libSearchPlugin.so").path, optional: true,
      extra: """
        ,
        {"name": "logging", "type": "LoggingPlugin.LoggingModule",
         "library": "\(folder.appendingPathComponent("libLoggingPlugin.so").path)",
         "version": "1.0.0"}
        """)
    let result = try HostProcess.run(["validate", app.path])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.hasPrefix("plugin refused: NotebookKit: ") }.count == 1)
    for plugin in ["LoggingPlugin", "SearchPlugin"] {
      #expect(
        lines.filter { $0.hasPrefix("plugin refused: \(plugin): ") }.count == 1,
        "\(result.stdout)")
    }
    #expect(lines.filter { $0.hasPrefix("plugin refused: ") }.count == 3, "\(result.stdout)")
  }

  @Test func refusedOptionalPluginIsMarkedFailedAndOthersRun() throws {
    let abi = try Self.hostABI
    let patched = try Self.patchedCopy(
      of: Self.library("SearchPlugin"), abi, String(repeating: "f", count: abi.count))
    let app = try Self.application(
      library: patched.path, optional: true,
      fields: """
        , "targets": [{"name": "search", "type": "SearchPlugin.SearchTarget",
          "actions": [{"name": "query", "remote": true,
                       "parameters": [{"name": "q", "type": "string", "required": true}]}]}]
        """,
      extra: """
        ,
        {"name": "after", "type": "LoggingPlugin.LoggingModule", "dependencies": ["search"],
         "library": "\(Self.library("LoggingPlugin").path)", "version": "1.0.0"},
        {"name": "logging", "type": "LoggingPlugin.LoggingModule",
         "library": "\(Self.library("LoggingPlugin").path)", "version": "1.0.0",
         "services": [{"protocol": "NotebookKit.Logger",
                       "implementation": "LoggingPlugin.ConsoleLogger"}]}
        """)
    let result = try HostProcess.run(
      ["run", "--manifests", app.path], input: ":modules\ngate://search/query?q=milk\n")
    #expect(result.status == 0, "\(result.stderr)")
    // A call to its target says why the target is not there.
    #expect(
      result.stdout.contains(
        "and no fallback handled the call (module 'search' failed in setUp: plugin refused: "),
      "\(result.stdout)")
    #expect(result.stderr.contains("warning: plugin refused: "), "\(result.stderr)")
    #expect(result.stderr.contains(patched.path) && result.stderr.contains("abi"))
    #expect(result.stdout.contains("search       failed"), "\(result.stdout)")
    #expect(result.stdout.contains("after        skipped"), "\(result.stdout)")
    #expect(result.stdout.contains("logging      running"), "\(result.stdout)")
  }
}
