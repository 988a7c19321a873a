import Foundation
import Testing

/// Load gate refusals through the `apiary` executable that need more than a patched sample
/// library: a plugin with its own copy of a contract library or of Apiary, a `requires` cycle,
/// all of them reported by one `apiary validate`; a plugin whose entry exports other types than
/// its descriptor declares; and the build configuration a descriptor records (a note, not a
/// refusal).
@Suite struct PluginRefusalTests {
  /// `FaultPlugin`'s package, whose `SplitPlugin` links a copy of `NotebookKit` statically.
  static var split: URL { PluginPackage.faults.library("SplitPlugin") }
  /// `FaultPlugin`'s package, whose `DriftPlugin` exports another module than it declares.
  static var drift: URL { PluginPackage.faults.library("DriftPlugin") }

  /// A module entry for `PluginGateTests.application`'s `extra`.
  static func module(_ name: String, _ type: String, _ library: URL) -> String {
    """
    ,
    {"name": "\(name)", "type": "\(type)", "library": "\(library.path)", "version": "1.0.0"}
    """
  }

  /// Two plugins that require each other.
  static func cycle(in directory: URL) throws -> (URL, URL) {
    (
      try CPlugin.library(
        "CycleA", lines: ["module CycleA.AModule", "requires CycleB ^1.0.0"], in: directory),
      try CPlugin.library(
        "CycleB", lines: ["module CycleB.BModule", "requires CycleA ^1.0.0"], in: directory)
    )
  }

  /// A plugin that defines a type descriptor of `ApiaryKernel` (as if it linked it statically).
  static func embeddingApiary(in directory: URL) throws -> URL {
    try CPlugin.library(
      "Embedded", lines: ["module Embedded.EmbeddedModule"],
      source: CPlugin.swiftSymbol("$s12ApiaryKernel6KernelCMn", "kernel"), in: directory)
  }

  static let splitMessage = "the library embeds its own copy of module 'NotebookKit'"
  static let apiaryMessage = "the library embeds its own copy of module 'ApiaryKernel'"

  /// Runs `apiary validate` and `apiary run` on the sample's search plugin plus module `name`
  /// of `type` in `library`: both must exit 1 with every one of `expected` in their output.
  private func expectBothRefuse(
    _ name: String, _ type: String, _ library: URL, _ expected: [String]
  ) throws {
    // The sample's search plugin brings the shared libNotebookKit.so, the one real copy.
    let app = try PluginGateTests.application(
      library: PluginGateTests.library("SearchPlugin").path,
      extra: Self.module(name, type, library))
    for command in [["validate", app.path], ["run", "--manifests", app.path]] {
      let result = try HostProcess.run(command)
      let text = result.stdout + result.stderr
      #expect(result.status == 1, "\(command[0]): \(text)")
      for part in expected { #expect(text.contains(part), "\(command[0]): \(part) in \(text)") }
    }
  }

  /// A refused contract library's own problems are printed with the plugin that needs it: no
  /// manifest names the contract library, and the host printed only that the plugin needs a
  /// refused library, which was not shown.
  @Test func aRefusedContractLibrarySaysWhyWithThePluginThatNeedsIt() throws {
    let directory = HostProcess.temporaryDirectory()
    _ = try CPlugin.library(
      "BrokenKit", lines: [], replacing: ["abi": String(repeating: "0", count: 64)],
      in: directory)
    let user = try CPlugin.library(
      "KitUser", lines: ["module KitUser.UserModule"],
      flags: ["-L\(directory.path)", "-Wl,--no-as-needed", "-lBrokenKit", "-Wl,-rpath,$ORIGIN"],
      in: directory)
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Kit", "scheme": "kit"}"#,
      "modules/a.json": """
      {"schemaVersion": 1, "modules": [
        {"name": "user", "type": "KitUser.UserModule", "library": "\(user.path)",
         "version": "1.0.0"}]}
      """,
    ])
    let result = try HostProcess.run(["validate", app.path])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let kit = try #require(lines.firstIndex { $0.contains("libBrokenKit.so' (named in DT_NEEDED") })
    let needs = try #require(lines.firstIndex { $0.contains("needs contract library 'BrokenKit'") })
    #expect(lines[kit].contains("field 'abi'"), "\(lines[kit])")
    #expect(kit < needs, "the contract library's problem comes first ('see … above')")
  }

  /// What `validate` says of two copies of the contract library `TagKit`, each in its own
  /// directory with a plugin linked against it: the first (`OldUser`) defines `Labeler`, the
  /// second (`NewUser`'s, version `newVersion`) adds `Labeler2`, which `NewUser` uses. The loader
  /// binds `NewUser`'s `libTagKit.so` to the copy `OldUser` brought in, so it fails in `dlopen`.
  /// Returns the refusal line of `NewUser` and the paths its message names.
  private func twoTagKitCopies(newVersion: String, requires: [String]) throws -> (
    line: String, kit: URL, newKit: URL, first: URL, second: URL
  ) {
    let old = HostProcess.temporaryDirectory()
    let new = HostProcess.temporaryDirectory()
    let labeler = CPlugin.swiftSymbol("$s6TagKit8LabelerMp", "labeler")
    let soname = "-Wl,-soname,libTagKit.so"
    let kit = try CPlugin.library("TagKit", lines: [], source: labeler, flags: [soname], in: old)
    let newKit = try CPlugin.library(
      "TagKit", version: newVersion, lines: [],
      source: labeler + CPlugin.swiftSymbol(Self.labeler2, "labeler2"), flags: [soname], in: new)
    func user(_ name: String, _ source: String, in directory: URL) throws -> URL {
      try CPlugin.library(
        name, lines: ["module \(name).UserModule"] + requires, source: source,
        flags: ["-L\(directory.path)", "-Wl,--no-as-needed", "-lTagKit", "-Wl,-rpath,$ORIGIN"],
        in: directory)
    }
    let first = try user("OldUser", CPlugin.swiftReference("$s6TagKit8LabelerMp", "l"), in: old)
    let second = try user("NewUser", CPlugin.swiftReference(Self.labeler2, "l2"), in: new)
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Kit", "scheme": "kit"}"#,
      "modules/a.json": """
      {"schemaVersion": 1, "modules": [
        {"name": "old", "type": "OldUser.UserModule", "library": "\(first.path)",
         "version": "1.0.0"},
        {"name": "new", "type": "NewUser.UserModule", "library": "\(second.path)",
         "version": "1.0.0"}]}
      """,
    ])
    let result = try HostProcess.run(["validate", app.path])
    #expect(result.status == 1)
    let line = try #require(
      result.stdout.split(separator: "\n").first { $0.contains(second.path) }, "\(result.stdout)")
    return (String(line), kit, newKit, first, second)
  }

  private static let labeler2 = "$s6TagKit8Labeler2Mp"

  /// Versions 1.0.0 and 2.0.0 of `TagKit`, and neither plugin has a `requires` line: the load
  /// gate refuses the plugin built against 2.0.0 before any code is opened, naming both copies
  /// and what to rebuild. It was opened, and said only `cannot open: …: undefined symbol:
  /// $s6TagKit8Labeler2Mp` (later: the copy loaded, from `dlopen`'s failure).
  @Test func aPluginBuiltAgainstAnotherContractVersionSaysWhichCopyIsLoaded() throws {
    let (line, kit, newKit, _, second) = try twoTagKitCopies(newVersion: "2.0.0", requires: [])
    for part in [
      "plugin refused: NewUser: library '\(second.path)' (named in ",
      "field 'DT_NEEDED': expected TagKit ^2.0.0, as it was built against TagKit 2.0.0 ('"
        + newKit.path + "'), found TagKit 1.0.0 ('\(kit.path)', loaded first)",
      "rebuild the plugins that bring that copy against a version in the range, or this plugin "
        + "against TagKit 1.0.0 with its line changed to 'requires TagKit ^1.0.0'",
    ] {
      #expect(line.contains(part), "\(part) in \(line)")
    }
    #expect(!line.contains("dlopen"), "\(line)")
  }

  /// Each plugin package builds its own copy of a contract library; when the contract gains a
  /// declaration without a new version and only one plugin is rebuilt, both copies say TagKit
  /// 1.0.0. The refusal said "built against another version of TagKit. Rebuild it against TagKit
  /// 1.0.0, or add 'requires TagKit RANGE'", neither of which helps (it was built against 1.0.0,
  /// and no range tells two 1.0.0s apart); it names the stale copy's plugin to rebuild.
  @Test func aContractChangedWithoutANewVersionNamesThePluginToRebuild() throws {
    let (line, kit, newKit, first, second) = try twoTagKitCopies(
      newVersion: "1.0.0", requires: ["requires TagKit >=1.0.0 <2.0.0"])
    for part in [
      "which the copy this process loads lacks: '\(kit.path)' (TagKit 1.0.0, loaded first with "
        + "'\(first.path)'); the plugin was built against its own copy '\(newKit.path)', which "
        + "also says TagKit 1.0.0 but is another build of it: the contract changed without a new "
        + "version. Rebuild '\(first.path)' against the TagKit of today, or give the changed "
        + "TagKit a new version",
      "(dlopen: \(second.path): undefined symbol: \(Self.labeler2))",
    ] {
      #expect(line.contains(part), "\(part) in \(line)")
    }
    #expect(!line.contains("Rebuild it against TagKit 1.0.0"), "\(line)")
  }

  @Test func pluginWithItsOwnContractLibraryIsRefused() throws {
    try expectBothRefuse(
      "split", "SplitPlugin.SplitModule", Self.split,
      [
        "plugin refused: SplitPlugin: library '\(Self.split.path)'", Self.splitMessage,
        "$s11NotebookKit4NoteVMn",  // names a symbol it defines
      ])
  }

  /// The descriptor is well formed, so the gate passes it; opening it (validate does, once the
  /// gate passed every library) finds that the entry's types differ.
  @Test func exportsThatDifferFromTheDescriptorAreRefusedWhenOpened() throws {
    try expectBothRefuse(
      "drift", "DriftPlugin.DeclaredModule", Self.drift,
      [
        "\(Self.drift.path): apiary_plugin_entry: exports differ from the descriptor; expected"
          + " modules [\"DriftPlugin.DeclaredModule\"] and targets [], found modules"
          + " [\"DriftPlugin.ShippedModule\"] and targets []"
      ])
  }

  @Test func pluginWithItsOwnApiaryIsRefused() throws {
    let library = try Self.embeddingApiary(in: HostProcess.temporaryDirectory())
    let app = try PluginGateTests.application(
      library: PluginGateTests.library("SearchPlugin").path,
      extra: Self.module("embedded", "Embedded.EmbeddedModule", library))
    let result = try HostProcess.run(["validate", app.path])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "plugin refused: Embedded: library '\(library.path)' (named in \(app.path)/modules/a.json"),
      "\(result.stdout)")
    #expect(result.stdout.contains(Self.apiaryMessage), "\(result.stdout)")
  }

  @Test func requiresCycleIsPrintedAsAPath() throws {
    let (a, b) = try Self.cycle(in: HostProcess.temporaryDirectory())
    let app = try PluginGateTests.application(
      library: PluginGateTests.library("SearchPlugin").path,
      extra: Self.module("a", "CycleA.AModule", a) + Self.module("b", "CycleB.BModule", b))
    let result = try HostProcess.run(["validate", app.path])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains("plugins require each other in a cycle: CycleA → CycleB → CycleA"),
      "\(result.stdout)")
    #expect(!result.stdout.contains("SearchPlugin"), "the other plugin passes: \(result.stdout)")
  }

  @Test func validateReportsEveryProblemInOnePass() throws {
    let directory = HostProcess.temporaryDirectory()
    let (a, b) = try Self.cycle(in: directory)
    let embedded = try Self.embeddingApiary(in: directory)
    let abi = try PluginGateTests.hostABI
    let otherABI = try PluginGateTests.patchedCopy(
      of: PluginGateTests.library("SearchPlugin"), abi, String(repeating: "e", count: abi.count))
    let app = try PluginGateTests.application(
      library: otherABI.path,
      extra: Self.module("split", "SplitPlugin.SplitModule", Self.split)
        + Self.module("embedded", "Embedded.EmbeddedModule", embedded)
        + Self.module("a", "CycleA.AModule", a) + Self.module("b", "CycleB.BModule", b)
        + #", {"name": "lost", "type": "ApiaryHost.Nothing", "dependencies": ["nowhere"]}"#)
    let result = try HostProcess.run(["validate", app.path])
    #expect(result.status == 1)
    for expected in [
      "\(otherABI.path)' (named in", "field 'abi' at apiary_plugin line 3", Self.splitMessage,
      Self.apiaryMessage, "cycle: CycleA → CycleB → CycleA", "'nowhere'",
    ] {
      #expect(result.stdout.contains(expected), "\(expected) in \(result.stdout)")
    }
    let count = result.stdout.split(separator: "\n").count
    #expect(result.stderr.contains("\(count) problems in \(app.path)"), "\(result.stderr)")
  }

  @Test func descriptorRecordsTheBuildConfiguration() throws {
    let host = try HostProcess.run(["plugin", "host"])
    #expect(host.stdout.contains("\nconfiguration debug"), "the tests run the debug host")
    let search = PluginGateTests.library("SearchPlugin").path
    let inspect = try HostProcess.run(["plugin", "inspect", search])
    #expect(inspect.stdout.contains("\nconfiguration debug\n"), "\(inspect.stdout)")
    // A release build loads, with a note (plan gates without opening the C fixture).
    let release = try CPlugin.library(
      "Released", lines: ["module Released.ReleasedModule"],
      replacing: ["configuration": "release"], in: HostProcess.temporaryDirectory())
    let app = try PluginGateTests.application(
      library: search, extra: Self.module("released", "Released.ReleasedModule", release))
    let plan = try HostProcess.run(["plan", app.path])
    #expect(plan.status == 0, "\(plan.stdout)\(plan.stderr)")
    let note =
      "note: \(release.path): plugin 'Released' was built in release configuration,"
      + " this host in debug"
    #expect(plan.stderr.contains(note), "\(plan.stderr)")
    // `:load` in a running host notes it too; the fixture's entry returns null, which is
    // refused, not dereferenced.
    let running = try PluginGateTests.application(library: search, optional: true)
    let file = running.appendingPathComponent("released.json")
    let entry = Self.module("released", "Released.ReleasedModule", release).dropFirst(2)
    try Data(#"{"schemaVersion": 1, "modules": [\#(entry)]}"#.utf8).write(to: file)
    let run = try HostProcess.run(
      ["run", running.path, "--quiet"], input: ":load \(file.path)\n:modules\n")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains(note), "\(run.stderr)")
    #expect(
      run.stdout.hasPrefix(
        "error: plugin refused: \(release.path): apiary_plugin_entry: returned a null pointer,"),
      "\(run.stdout)")
    #expect(run.stdout.contains("\nsearch       failed"), "the host goes on: \(run.stdout)")
  }

  @Test func anEntryThatReturnsNullFailsTheBootWithoutACrash() throws {
    let null = try CPlugin.library(
      "Null", lines: ["module Null.NullModule"], in: HostProcess.temporaryDirectory())
    let app = try PluginGateTests.application(
      library: PluginGateTests.library("SearchPlugin").path,
      extra: Self.module("null", "Null.NullModule", null))
    let result = try HostProcess.run(["run", app.path, "--quiet"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "\(null.path): apiary_plugin_entry: returned a null pointer, not the plugin's exports"),
      "\(result.stderr)")
  }
}
