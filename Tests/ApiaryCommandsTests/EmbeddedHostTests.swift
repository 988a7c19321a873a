import Apiary
import Foundation
import Testing

@testable import ApiaryCommands

/// `EmbeddedHost.loadPlugins` gates a set of libraries in one pass and opens none of them
/// unless every one passes.
@Suite struct EmbeddedHostTests {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("apiary-embedded-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  /// `lib<name>.so`, compiled from C: a descriptor with this host's facts (and `replacing`
  /// applied), one module, and an entry that returns null.
  private func library(_ name: String, replacing: [String: String] = [:]) throws -> String {
    let facts = PluginGate.hostDescription.split(separator: "\n").map { line in
      let key = String(line.prefix { $0 != " " })
      return replacing[key].map { "\(key) \($0)" } ?? String(line)
    }
    let lines =
      ["descriptor 1"] + facts
      + ["plugin \(name)", "version 1.0.0", "module \(name).\(name)Module"]
    let source = """
      __attribute__((used, section("apiary_plugin")))
      const char apiary_plugin_descriptor[] = "\(lines.map { $0 + "\\n" }.joined())";
      void *apiary_plugin_entry(void) { return 0; }
      """
    let file = directory.appendingPathComponent("\(name).c")
    try Data(source.utf8).write(to: file)
    let output = directory.appendingPathComponent("lib\(name).so").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["cc", "-shared", "-fPIC", "-o", output, file.path]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "cc could not build \(name)")
    return output
  }

  private func isLoaded(_ path: String) -> Bool {
    dlopen(path, RTLD_NOW | RTLD_NOLOAD) != nil
  }

  @Test func aRefusedLibraryKeepsEveryOtherOneClosed() throws {
    let good = try library("Good")
    let bad = try library("Bad", replacing: ["abi": String(repeating: "0", count: 64)])
    let refusal = #expect(throws: EmbeddedHost.Refusal.self) {
      try EmbeddedHost.loadPlugins(
        [.init(library: good, version: "1.0.0"), .init(library: bad, version: "1.0.0")],
        into: TypeCatalog())
    }
    let text = refusal?.description ?? ""
    #expect(text.contains("library '\(bad)'") && text.contains("field 'abi'"))
    #expect(!text.contains("library '\(good)'"))
    #expect(!isLoaded(good))
    #expect(!isLoaded(bad))
  }

  @Test func librariesThatPassAreOpenedAndTheirEntryCalled() throws {
    let good = try library("Opened")
    let refusal = #expect(throws: EmbeddedHost.Refusal.self) {
      try EmbeddedHost.loadPlugins([.init(library: good, version: "1.0.0")], into: TypeCatalog())
    }
    // The entry ran: it returns null instead of the plugin's exports.
    #expect(refusal?.description.contains("apiary_plugin_entry: returned a null pointer") == true)
    #expect(isLoaded(good))
  }
}
