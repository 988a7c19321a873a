import Foundation
import Testing

/// `:load` adds a plugin's modules to a running host through the load gate; `:remove`
/// withdraws what they registered.
@Suite struct RuntimeLoadTests {
  @Test func loadAddsAPluginAndRemoveWithdrawsIt() throws {
    let modules = SamplePlugins.manifests + "/modules"
    let app = try HostProcess.manifests([
      "app.json": """
      {"schemaVersion": 1, "name": "Notebook", "scheme": "notebook", "allowOutsidePaths": true,
       "modules": ["\(modules)/logging.json", "\(modules)/store.json", "\(modules)/notes.json"]}
      """
    ])
    let input = """
      notebook://search/query?q=x
      :load \(modules)/search.plist
      notebook://notes/create?title=x
      notebook://search/query?q=x
      :remove search
      notebook://search/query?q=x
      :post note.saved

      """
    let result = try HostProcess.run(
      ["run", "--quiet", "--manifests", app.path], input: HostProcess.oneByOne(input))
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 7, "\(lines)")
    #expect(lines[0].hasPrefix("error:") && lines[0].contains("search"), "\(lines)")
    #expect(lines[1] == "loaded 'search'", "\(lines)")
    #expect(lines[3].contains("\"title\":\"x\""), "\(lines)")
    #expect(lines[4] == "removed 'search'", "\(lines)")
    #expect(lines[5].hasPrefix("error:"), "the target is withdrawn: \(lines)")
    #expect(!lines[6].contains("search"), "its event handlers are withdrawn: \(lines)")
  }

  /// The modules of one file are added dependencies first, whatever their order in it: `x`,
  /// written before the `y` it depends on, was refused ("module 'x' depends on 'y', which is
  /// not running") and `y` was never added.
  @Test func loadAddsAFilesModulesDependenciesFirst() throws {
    let library = PluginPackage.faults.library("FaultPlugin").path
    func module(_ name: String, _ extra: String = "") -> String {
      #"{"name": "\#(name)", "type": "FaultPlugin.FaultModule", "library": "\#(library)", "#
        + #""version": "1.0.0"\#(extra)}"#
    }
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Faults", "scheme": "faults", "modules": []}"#,
      "extra.json": """
      {"schemaVersion": 1, "modules": [\(module("x", #", "dependencies": ["y"]"#)), \(module("y"))]}
      """,
    ])
    let result = try HostProcess.run(
      ["run", "--quiet", app.path], input: ":load \(app.path)/extra.json\n:modules\n")
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "loaded 'x', 'y'", "\(lines)")
    #expect(lines.contains("x            running") && lines.contains("y            running"))
  }

  /// A file whose second module fails loads nothing: the first is withdrawn, so the fixed file
  /// loads. It stayed, and the fixed file was refused ("a module named 'y' is already loaded").
  @Test func aFailedLoadWithdrawsTheFilesOtherModulesAndCanBeRetried() throws {
    let library = PluginPackage.faults.library("FaultPlugin").path
    func file(_ config: String) -> String {
      let module =
        #"{"type": "FaultPlugin.FaultModule", "library": "\#(library)", "version": "1.0.0""#
      return #"{"schemaVersion": 1, "modules": [\#(module), "name": "x", "dependencies": ["y"]"#
        + #", "config": \#(config)}, \#(module), "name": "y"}]}"#
    }
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Faults", "scheme": "faults", "modules": []}"#,
      "broken.json": file(#"{"floodStandardError": "many"}"#),
      "fixed.json": file("{}"),
    ])
    let input = ":load \(app.path)/broken.json\n:modules\n:load \(app.path)/fixed.json\n:modules\n"
    let result = try HostProcess.run(["run", "--quiet", app.path], input: input)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    // The first `:modules` lists nothing: the withdrawn module is forgotten, as a removed one.
    try #require(lines.count == 4, "\(lines)")
    #expect(
      lines[0].hasPrefix("error: loading 'x' failed: module 'x' failed in setUp: "), "\(lines)")
    #expect(lines[0].hasSuffix("; withdrew the file's other modules: 'y'"), "\(lines)")
    #expect(lines[1] == "loaded 'x', 'y'", "\(lines)")
    #expect(lines[2...] == ["y            running", "x            running"], "\(lines)")
  }

  /// A file whose second module names a type the host does not have is refused before any
  /// module of it is set up, with the manifest position: the first was set up, started and
  /// withdrawn, and the error ("type … not found (is its target linked into the host?)") named
  /// no file.
  @Test func aTypeThatWouldNotLinkFailsTheFileBeforeAnySetUp() throws {
    let library = PluginPackage.faults.library("FaultPlugin").path
    let module = #"{"library": "\#(library)", "version": "1.0.0""#
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Faults", "scheme": "faults", "modules": []}"#,
      "two.json": #"{"schemaVersion": 1, "modules": [\#(module), "name": "a", "#
        + #""type": "FaultPlugin.FaultModule"}, {"name": "b", "type": "Tags.Nope"}]}"#,
    ])
    let result = try HostProcess.run(
      ["run", "--quiet", app.path], input: ":load \(app.path)/two.json\n:modules\n")
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "error: 1 manifest problem:", "\(lines)")
    #expect(
      lines.contains {
        $0.hasPrefix("  \(app.path)/two.json:1:")
          && $0.contains("module type 'Tags.Nope' not found")
      },
      "\(lines)")
    #expect(!result.stderr.contains("fault a: setUp"), "a was set up: \(result.stderr)")
  }

  /// `:load` of the application manifest says it is one: it listed each application key as
  /// unknown to a module file.
  @Test func loadingTheApplicationManifestSaysWhatItIs() throws {
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Empty", "scheme": "empty", "modules": []}"#
    ])
    let result = try HostProcess.run(
      ["run", "--quiet", app.path], input: ":load \(app.path)/app.json\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n") == [
        "error: 1 manifest problem:",
        "  \(app.path)/app.json: an application manifest (it has \"scheme\"); ':load' takes a "
          + "module manifest, a file of \"modules\" like those the application's \"modules\" names",
      ], "\(result.stdout)")
  }

  /// A relative path that names no file says where it was looked for: it is taken from the
  /// directory `apiary` runs in, which the error alone did not say.
  @Test func aMissingRelativePathSaysWhereItWasLookedFor() throws {
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Empty", "scheme": "empty", "modules": []}"#
    ])
    let result = try HostProcess.run(
      ["run", "--quiet", app.path], input: ":load ../nope/x.json\n:load \(app.path)/nope.json\n",
      in: app)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.filter { $0.hasPrefix("  (a relative path") } == [
        "  (a relative path is taken from the directory apiary runs in: \(app.path))"
      ], "\(lines)")
    #expect(lines.contains("  ../nope/x.json: cannot read this file: No such file or directory"))
  }

  /// `:remove` of a module whose `tearDown` fails says so: it said "removed" alone, and only
  /// the timeline on standard error told.
  @Test func removeSaysWhenTearDownFailed() throws {
    let library = PluginPackage.faults.library("FaultPlugin").path
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Faults", "scheme": "faults", "modules": []}"#,
      "x.json":
        #"{"schemaVersion": 1, "modules": [{"name": "x", "type": "FaultPlugin.FaultModule", "#
        + #""library": "\#(library)", "version": "1.0.0", "config": {"failIn": "tearDown"}}]}"#,
    ])
    let result = try HostProcess.run(
      ["run", "--quiet", app.path], input: ":load \(app.path)/x.json\n:remove x\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n") == [
        "loaded 'x'", "removed 'x' (its tearDown failed: fault refused to tearDown)",
      ], "\(result.stdout)")
  }

  /// A removed module is gone from `:modules`, and `:remove` and `:restart` of it name no
  /// module, as for a name never loaded; `:load` brings it back. It stayed listed as `stopped`,
  /// a second `:remove` said "removed" again and `:restart` said it was not in a child process.
  @Test func aRemovedModuleIsNoLongerListed() throws {
    let library = PluginPackage.faults.library("FaultPlugin").path
    func module(_ name: String) -> String {
      #"{"schemaVersion": 1, "modules": [{"name": "\#(name)", "type": "FaultPlugin.FaultModule", "#
        + #""library": "\#(library)", "version": "1.0.0"}]}"#
    }
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Faults", "scheme": "faults", "modules": []}"#,
      "kept.json": module("kept"), "gone.json": module("gone"),
    ])
    let input = [
      ":load \(app.path)/kept.json", ":load \(app.path)/gone.json", ":remove gone", ":modules",
      ":remove gone", ":restart gone", ":load \(app.path)/gone.json", ":modules",
    ]
    let result = try HostProcess.run(
      ["run", "--quiet", app.path], input: input.joined(separator: "\n") + "\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n") == [
        "loaded 'kept'", "loaded 'gone'", "removed 'gone'", "kept         running",
        "error: no module named 'gone'", "error: no module named 'gone'", "loaded 'gone'",
        "kept         running", "gone         running",
      ], "\(result.stdout)")
  }

  /// A command `:help` lists, typed with too few or too many words, is answered with its
  /// syntax, not as an unknown command.
  @Test func aCommandWithTheWrongWordsShowsItsSyntax() throws {
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Empty", "scheme": "empty", "modules": []}"#
    ])
    let input = ":post\n:remove a b\n:load\n:modules all\n:resolve\n:frob\n"
    let result = try HostProcess.run(["run", "--quiet", app.path], input: input)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n") == [
        "error: usage: :post EVENT [key=value ...]", "error: usage: :remove MODULE",
        "error: usage: :load MANIFEST", "error: usage: :modules",
        "error: usage: :resolve PROTOCOL [NAME]", "error: unknown command ':frob'; type ':help'",
      ], "\(result.stdout)")
  }

  /// A module, type or event name that matches nothing is answered with the closest one: a
  /// bound protocol also by its name without its module's.
  @Test func aMistypedNameGetsTheClosestOne() throws {
    let input = """
      :remove serch
      :resolve NoteStore
      :resolve NotebookKit.Loger
      :resolve Zebra
      :post note.savd

      """
    let result = try HostProcess.run(
      ["run", "--quiet", HostProcess.manifests], input: HostProcess.oneByOne(input))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n") == [
        "error: no module named 'serch' (did you mean 'search'?)",
        "error: no type named 'NoteStore' (did you mean 'NotebookKit.NoteStore'?)",
        "error: no type named 'NotebookKit.Loger' (did you mean 'NotebookKit.Logger'?)",
        "error: no type named 'Zebra'",
        "event 'note.savd': handled by []; no module subscribes to it (did you mean 'note.saved'?)",
      ], "\(result.stdout)")
  }

  @Test func loadRefusesAMismatchedPluginAndKeepsTheHost() throws {
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Notebook", "scheme": "notebook", "modules": []}"#,
      "extra.json": """
      {"schemaVersion": 1, "modules": [{"name": "search", "type": "SearchPlugin.SearchModule",
        "library": "\(PluginGateTests.library("SearchPlugin").path)", "version": "9.9.9"}]}
      """,
    ])
    let result = try HostProcess.run(
      ["run", "--quiet", "--manifests", app.path],
      input: ":load \(app.path)/extra.json\n:modules\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("error: plugin refused:"), "\(result.stdout)")
    #expect(result.stdout.contains("version"), "\(result.stdout)")
  }

  /// A refused `:load` leaves nothing in the host's catalog: a later module naming the same
  /// type without a library is told the type is not found, not "plugin refused: " with no
  /// reason (a stand-in for the refused type stayed registered).
  @Test func aRefusedLoadLeavesNoStandInForItsTypes() throws {
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Notebook", "scheme": "notebook", "modules": []}"#,
      "refused.json": """
      {"schemaVersion": 1, "modules": [{"name": "x", "type": "Nope.T", "library": "/etc/passwd",
        "version": "1.0.0"}]}
      """,
      "again.json": #"{"schemaVersion": 1, "modules": [{"name": "y", "type": "Nope.T"}]}"#,
    ])
    let result = try HostProcess.run(
      ["run", "--quiet", "--manifests", app.path],
      input: ":load \(app.path)/refused.json\n:load \(app.path)/again.json\n")
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    let errors = lines.filter { $0.hasPrefix("error:") }
    try #require(errors.count == 2, "\(result.stdout)")
    #expect(errors[0].contains("plugin refused") && errors[0].contains("/etc/passwd"))
    // The second, a manifest problem at its place: the type is not found.
    #expect(errors[1] == "error: 1 manifest problem:", "\(result.stdout)")
    #expect(lines.last?.contains("module type 'Nope.T' not found") == true, "\(result.stdout)")
  }

  @Test func loadListsEachManifestProblemOnItsOwnLine() throws {
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Notebook", "scheme": "notebook", "modules": []}"#,
      "extra.json": """
      {"schemaVersion": 1, "modules": [{"name": "a", "type": "A.A", "colour": 1, "size": 2}]}
      """,
    ])
    let result = try HostProcess.run(
      ["run", "--quiet", "--manifests", app.path],
      input: ":load \(app.path)/extra.json\n")
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 3, "\(lines)")
    #expect(lines[0] == "error: 2 manifest problems:", "\(lines)")
    #expect(lines[1].contains("extra.json:1:") && lines[1].contains("'colour'"), "\(lines)")
    #expect(lines[2].contains("extra.json:1:") && lines[2].contains("'size'"), "\(lines)")
  }
}

/// `:load` gates a file's libraries with those the process opened before (which stay loaded,
/// even after `:remove`), as the boot gates them together; a library whose file changed on disk
/// since it was opened is refused, since `dlopen` would return the old image.
@Suite struct RuntimeLoadCrossCheckTests {
  /// A module file with module `name` of type `FaultPlugin.FaultModule` in `library`.
  static func faultModule(_ name: String, _ library: String) -> String {
    #"{"schemaVersion": 1, "modules": [{"name": "\#(name)", "type": "FaultPlugin.FaultModule", "#
      + #""library": "\#(library)", "version": "1.0.0"}]}"#
  }

  static let emptyApplication =
    #"{"schemaVersion": 1, "name": "Faults", "scheme": "faults", "modules": []}"#

  /// A copy of the fixture's `libFaultPlugin.so` in a fresh directory.
  static func faultPluginCopy() throws -> URL {
    let copy = HostProcess.temporaryDirectory().appendingPathComponent("libFaultPlugin.so")
    try FileManager.default.copyItem(at: PluginPackage.faults.library("FaultPlugin"), to: copy)
    return copy
  }

  /// Sends `line` to `running`, then reads its standard output into `output` until that has
  /// `count` lines (or the output ends).
  static func send(
    _ line: String, to running: HostProcess.Running, until count: Int, into output: inout String
  ) {
    running.input.fileHandleForWriting.write(Data((line + "\n").utf8))
    while output.split(separator: "\n").count < count {
      let chunk = running.output.fileHandleForReading.availableData
      if chunk.isEmpty { return }
      output += String(decoding: chunk, as: UTF8.self)
    }
  }

  /// The sample's plugins load the contract library `NotebookKit` at boot: a plugin with its
  /// own copy of it is refused, as `validate` refuses it. It loaded, gated alone.
  @Test func aPluginEmbeddingALoadedContractLibraryIsRefused() throws {
    let split = PluginRefusalTests.split
    let entry = PluginRefusalTests.module("split", "SplitPlugin.SplitModule", split).dropFirst(2)
    let file = try HostProcess.manifests([
      "split.json": #"{"schemaVersion": 1, "modules": [\#(entry)]}"#
    ]).appendingPathComponent("split.json")
    let result = try HostProcess.run(
      ["run", "--quiet", HostProcess.manifests], input: ":load \(file.path)\n:modules\n")
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    try #require(!lines.isEmpty, "\(lines)")
    #expect(
      lines[0].hasPrefix("error: plugin refused: SplitPlugin: library '\(split.path)'"),
      "\(lines)")
    #expect(lines[0].contains(PluginRefusalTests.splitMessage), "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("split ") }, "\(lines)")
  }

  /// A second copy of a plugin loaded before (and removed) is refused for its name and types,
  /// as at boot; the first copy loads again. The copy loaded, gated alone.
  @Test func aSecondCopyOfALoadedPluginIsRefused() throws {
    let original = PluginPackage.faults.library("FaultPlugin").path
    let copy = try Self.faultPluginCopy().path
    let app = try HostProcess.manifests([
      "app.json": Self.emptyApplication,
      "first.json": Self.faultModule("x", original),
      "copy.json": Self.faultModule("x", copy),
    ])
    let input = """
      :load \(app.path)/first.json
      :remove x
      :load \(app.path)/copy.json
      :load \(app.path)/first.json

      """
    let result = try HostProcess.run(["run", "--quiet", app.path], input: input)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 6, "\(lines)")
    #expect(lines[0...1] == ["loaded 'x'", "removed 'x'"], "\(lines)")
    let refusal = "plugin refused: FaultPlugin: library '\(copy)'"
    #expect(lines[2].hasPrefix("error: " + refusal), "\(lines)")
    #expect(lines[3...4].allSatisfy { $0.hasPrefix(refusal) }, "\(lines)")
    let first = "'FaultPlugin' (library '\(original)'"
    #expect(lines[2].contains("plugin name 'FaultPlugin' is also used by \(first)"), "\(lines)")
    #expect(lines[3].contains("type 'FaultPlugin.FaultModule' is also exported by \(first)"))
    #expect(lines[4].contains("type 'FaultPlugin.FaultTarget' is also exported by \(first)"))
    #expect(lines[5] == "loaded 'x'", "the first copy loads again: \(lines)")
  }

  /// The gate checks a new library against what it accepted of the libraries opened before,
  /// not against their files: with the first copy's file deleted after it loaded, a second copy
  /// is still refused. It loaded, the first copy no longer read.
  @Test func aSecondCopyIsRefusedAfterTheFirstCopysFileIsDeleted() throws {
    let (first, second) = (try Self.faultPluginCopy(), try Self.faultPluginCopy())
    let app = try HostProcess.manifests([
      "app.json": Self.emptyApplication,
      "first.json": Self.faultModule("x", first.path),
      "second.json": Self.faultModule("y", second.path),
    ])
    let running = try HostProcess.Running(["run", "--quiet", app.path])
    var output = ""
    func send(_ line: String, until count: Int) {
      Self.send(line, to: running, until: count, into: &output)
    }
    send(":load \(app.path)/first.json", until: 1)
    try FileManager.default.removeItem(at: first)
    send(":load \(app.path)/second.json", until: 2)
    let result = try running.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let lines = output.split(separator: "\n").map(String.init)
    try #require(lines.count >= 2, "\(lines)")
    #expect(lines[0] == "loaded 'x'", "\(lines)")
    #expect(
      lines[1].hasPrefix("error: plugin refused: FaultPlugin: library '\(second.path)'"),
      "\(lines)")
    #expect(
      lines[1].contains(
        "plugin name 'FaultPlugin' is also used by 'FaultPlugin' (library '\(first.path)', "
          + "named in \(app.path)/first.json:1:"),
      "\(lines)")
  }

  /// A library replaced on disk after it was loaded and removed is refused: `dlopen` of its
  /// path returns the old image, so the host would run code the gate did not check. It printed
  /// "loaded".
  @Test func aLibraryChangedOnDiskSinceItWasLoadedIsRefused() throws {
    let library = try Self.faultPluginCopy()
    let app = try HostProcess.manifests([
      "app.json": Self.emptyApplication, "x.json": Self.faultModule("x", library.path),
    ])
    let running = try HostProcess.Running(["run", "--quiet", app.path])
    var output = ""
    func send(_ line: String, until count: Int) {
      Self.send(line, to: running, until: count, into: &output)
    }
    send(":load \(app.path)/x.json", until: 1)
    send(":remove x", until: 2)
    // Rebuilt: the same bytes in a new file (a new inode) renamed over the old one.
    let rebuilt = library.deletingLastPathComponent().appendingPathComponent("new.so")
    try FileManager.default.copyItem(at: PluginPackage.faults.library("FaultPlugin"), to: rebuilt)
    guard rename(rebuilt.path, library.path) == 0 else {
      Issue.record("cannot replace \(library.path): errno \(errno)")
      return
    }
    send(":load \(app.path)/x.json", until: 3)
    let result = try running.finish()
    #expect(result.status == 0, "\(result.stderr)")
    let lines = output.split(separator: "\n").map(String.init)
    try #require(lines.count == 3, "\(lines)")
    #expect(lines[0...1] == ["loaded 'x'", "removed 'x'"], "\(lines)")
    #expect(
      lines[2].hasPrefix(
        "error: plugin refused: \(library.path): the file changed on disk since it was loaded"
          + " into this process: expected device "),
      "\(lines)")
    #expect(
      lines[2].hasSuffix(
        "a process keeps the first image of a library, so restart the host to load the new one"),
      "\(lines)")
  }

  /// A module file in the current directory naming its library by a bare name loads the
  /// library next to it: `dlopen` searched the library path for the name and failed.
  @Test func aBareLibraryNameLoadsTheFileInTheCurrentDirectory() throws {
    let library = try Self.faultPluginCopy()
    let directory = library.deletingLastPathComponent()
    try Data(Self.faultModule("x", "libFaultPlugin.so").utf8)
      .write(to: directory.appendingPathComponent("x.json"))
    let app = try HostProcess.manifests(["app.json": Self.emptyApplication])
    let result = try HostProcess.run(
      ["run", "--quiet", app.path], input: ":load x.json\n:modules\n", in: directory)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n") == ["loaded 'x'", "x            running"],
      "\(result.stdout)")
  }
}
