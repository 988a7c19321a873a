import Apiary
import Foundation
import Synchronization
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
  /// applied), one module, and an entry that returns null; with `exporting`, one that returns
  /// the exports of ``EmbeddedEntries`` for that tag, whose module the descriptor declares.
  private func library(
    _ name: String, replacing: [String: String] = [:], exporting tag: String? = nil,
    source extra: String = ""
  ) throws -> String {
    let facts = PluginGate.hostDescription.split(separator: "\n").map { line in
      let key = String(line.prefix { $0 != " " })
      return replacing[key].map { "\(key) \($0)" } ?? String(line)
    }
    let module = tag.map { "ApiaryCommandsTests.Embedded\($0)Module" } ?? "\(name).\(name)Module"
    let lines = ["descriptor 1"] + facts + ["plugin \(name)", "version 1.0.0", "module \(module)"]
    let entry =
      tag.map(EmbeddedEntries.source) ?? "void *apiary_plugin_entry(void) { return 0; }"
    let source = """
      __attribute__((used, section("apiary_plugin")))
      const char apiary_plugin_descriptor[] = "\(lines.map { $0 + "\\n" }.joined())";
      \(entry)
      \(extra)
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

  @Test func anEmptySetOpensNothing() throws {
    #expect(try EmbeddedHost.loadPlugins([], into: TypeCatalog()) == [])
  }

  /// A library the set names twice, by one path or two, is opened and its entry called once.
  @Test func aLibraryNamedTwiceIsOpenedOnce() throws {
    let twice = try library("Twice", exporting: "Twice")
    let link = directory.appendingPathComponent("libTwiceLink.so").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: twice)
    let catalog = TypeCatalog()
    let types = try EmbeddedHost.loadPlugins(
      [
        .init(library: twice, version: "1.0.0"), .init(library: twice, version: "1.0.0"),
        .init(library: link, version: "1.0.0"),
      ],
      into: catalog)
    #expect(types == ["ApiaryCommandsTests.EmbeddedTwiceModule"])
    #expect(EmbeddedEntries.count("Twice") == 1)
    #expect(catalog.lookup("ApiaryCommandsTests.EmbeddedTwiceModule") != nil)
  }

  /// Two versions asked of one library: refused once, saying both, and nothing is opened.
  @Test func aLibraryNamedTwiceWithAnotherVersionIsRefusedOnce() throws {
    let path = try library("Versions")
    let refusal = #expect(throws: EmbeddedHost.Refusal.self) {
      try EmbeddedHost.loadPlugins(
        [.init(library: path, version: "1.0.0"), .init(library: path, version: "2.0.0")],
        into: TypeCatalog())
    }
    let lines = refusal?.description.split(separator: "\n") ?? []
    #expect(lines.count == Set(lines).count, "a reason said twice: \(lines)")
    #expect(lines.contains { $0.contains("expected 2.0.0") || $0.contains("expects 2.0.0") })
    #expect(!isLoaded(path))
  }

  /// A library that passes the gate and then fails to open (an undefined symbol) ends the
  /// loading there: the libraries before it stay open, with their types registered; the
  /// refusal says why `dlopen` failed.
  @Test func aLibraryThatFailsToOpenAfterTheGateEndsTheLoading() throws {
    let first = try library("First", exporting: "First")
    let broken = try library(
      "Unbound",
      source: "int not_defined_anywhere(void); int use(void) { return not_defined_anywhere(); }")
    let catalog = TypeCatalog()
    let refusal = #expect(throws: EmbeddedHost.Refusal.self) {
      try EmbeddedHost.loadPlugins(
        [.init(library: first, version: "1.0.0"), .init(library: broken, version: "1.0.0")],
        into: catalog)
    }
    #expect(refusal?.description.contains("\(broken): cannot open:") == true)
    #expect(refusal?.description.contains("not_defined_anywhere") == true)
    #expect(isLoaded(first))
    #expect(!isLoaded(broken))
    #expect(catalog.lookup("ApiaryCommandsTests.EmbeddedFirstModule") != nil)
  }

  /// A second call naming a library the first opened opens it again (the process keeps one
  /// image) and registers its types in the second catalog.
  @Test func aLibraryOpenedByAnEarlierCallLoadsAgainIntoAnotherCatalog() throws {
    let again = try library("Again", exporting: "Again")
    let first = TypeCatalog()
    let second = TypeCatalog()
    #expect(
      try EmbeddedHost.loadPlugins([.init(library: again, version: "1.0.0")], into: first)
        == ["ApiaryCommandsTests.EmbeddedAgainModule"])
    #expect(
      try EmbeddedHost.loadPlugins(
        [.init(library: again, version: "1.0.0"), .init(library: again, version: "1.0.0")],
        into: second) == ["ApiaryCommandsTests.EmbeddedAgainModule"])
    #expect(second.lookup("ApiaryCommandsTests.EmbeddedAgainModule") != nil)
  }
}

/// Module types the working fixture libraries export, one per library: a process that opened
/// a library keeps it, so later gate runs refuse another library exporting the same type.
final class EmbeddedOnceModule: Module { init() {} }
final class EmbeddedTwiceModule: Module { init() {} }
final class EmbeddedAgainModule: Module { init() {} }
final class EmbeddedFirstModule: Module { init() {} }

/// What the working fixture libraries' entries call: the exports of the type their tag names,
/// and how often each tag's entry ran.
enum EmbeddedEntries {
  static let calls = Mutex<[String: Int]>([:])

  static let exports: @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutableRawPointer? = {
    tag in
    let tag = tag.map { String(cString: $0) } ?? ""
    EmbeddedEntries.calls.withLock { $0[tag, default: 0] += 1 }
    switch tag {
    case "Once": return PluginExports(modules: EmbeddedOnceModule.self).retained()
    case "Twice": return PluginExports(modules: EmbeddedTwiceModule.self).retained()
    case "Again": return PluginExports(modules: EmbeddedAgainModule.self).retained()
    case "First": return PluginExports(modules: EmbeddedFirstModule.self).retained()
    default: return nil
    }
  }

  /// The C body of an entry that returns `exports(tag)` (its address in this process).
  static func source(_ tag: String) -> String {
    let address = UInt(bitPattern: unsafeBitCast(exports, to: UnsafeRawPointer.self))
    return """
      void *apiary_plugin_entry(void) {
        return ((void *(*)(const char *))0x\(String(address, radix: 16))UL)("\(tag)");
      }
      """
  }

  static func count(_ tag: String) -> Int { calls.withLock { $0[tag] ?? 0 } }
}
