import ApiaryPluginGate
import Foundation
import Testing

/// One real library per refusal of issue 12 §4, each with its message checked.
@Suite struct LoadGateTests {
  let fixtures: Fixtures

  init() throws { fixtures = try Fixtures() }

  private func candidate(
    _ name: String, _ path: String, version: String? = "1.0.0", sha256: String? = nil
  ) -> PluginCandidate {
    PluginCandidate(
      name: name, version: version, library: path, sha256: sha256,
      origin: "Manifests/modules/\(name).json: modules[0].library")
  }

  private func gate(_ candidates: [PluginCandidate], host: HostFacts = Fixtures.host) -> (
    plugins: [String], problems: [String]
  ) {
    let (plugins, problems) = LoadGate.check(candidates, host: host)
    return (plugins.map(\.descriptor.plugin), problems.map(\.description))
  }

  /// `lib<Name>.so` for plugin `name` exporting `<Name>Plugin.<Name>Module`.
  private func plugin(
    _ name: String, in folder: String = "", version: String = "1.0.0", requires: [String] = [],
    replacing: [String: String] = [:], extra: [String] = [], entry: Bool = true,
    source: String = "", flags: [String] = []
  ) throws -> String {
    let type = name.prefix(1).uppercased() + name.dropFirst()
    return try fixtures.library(
      type, in: folder,
      descriptor: Fixtures.descriptor(
        plugin: name, version: version, modules: ["\(type)Plugin.\(type)Module"],
        requires: requires,
        replacing: replacing, extra: extra),
      entry: entry, source: source, flags: flags)
  }

  /// `libNotebookKit.so`, a contract library (no modules, no entry), in `folder`.
  private func notebookKit(
    in folder: String, version: String = "1.2.0", replacing: [String: String] = [:]
  ) throws -> String {
    try fixtures.library(
      "NotebookKit", in: folder,
      descriptor: Fixtures.descriptor(
        plugin: "NotebookKit", version: version, replacing: replacing),
      entry: false, flags: ["-Wl,-soname,libNotebookKit.so"])
  }

  /// Flags that link `libNotebookKit.so` from `folder` and find it next to the plugin (kept
  /// needed although no symbol of it is used, as a Swift plugin would use some).
  private func linkingNotebookKit(_ folder: String, rpathFlags: [String] = []) -> [String] {
    [
      "-L\(fixtures.directory)/\(folder)", "-Wl,--no-as-needed", "-lNotebookKit",
      "-Wl,-rpath,$ORIGIN",
    ]
      + rpathFlags
  }

  private var origin: String { "Manifests/modules/notes.json: modules[0].library" }

  // MARK: Passing

  @Test func acceptsAPluginAndTheContractLibraryItNeeds() throws {
    let kit = try notebookKit(in: "notes")
    let notes = try plugin(
      "notes", in: "notes", requires: ["NotebookKit >=1.0.0 <2.0.0", "apiary ^1.0.0"],
      flags: linkingNotebookKit("notes"))
    let (plugins, problems) = LoadGate.check([candidate("notes", notes)], host: Fixtures.host)
    #expect(problems == [])
    let gated = try #require(plugins.first)
    #expect(plugins.count == 1)
    #expect(gated.candidate.library == notes)
    #expect(gated.descriptor.modules == ["NotesPlugin.NotesModule"])
    #expect(gated.contracts.map(\.name) == ["NotebookKit"])
    #expect(gated.contracts.map(\.path) == [kit])
    #expect(gated.contracts.first?.descriptor.version == SemanticVersion(1, 2, 0))
  }

  @Test func theSameFileNamedTwiceIsCheckedOnce() throws {
    let notes = try plugin("notes")
    let result = gate([candidate("notes", notes), candidate("notes", notes)])
    #expect(result.problems == [])
    #expect(result.plugins == ["notes", "notes"])
  }

  // MARK: The file

  @Test func refusesAMissingFile() {
    let path = fixtures.directory + "/libNotes.so"
    #expect(
      gate([candidate("notes", path)]).problems == [
        "notes: library '\(path)' (named in \(origin)): file not found (build the plugin first ('swift build' in its package), or fix the library path)"
      ])
  }

  @Test func refusesATextFile() throws {
    let path = try fixtures.write(Array("not a library\n".utf8), to: "libNotes.so")
    #expect(
      gate([candidate("notes", path)]).problems == [
        "notes: library '\(path)' (named in \(origin)): expected an ELF shared library (starting with \\x7fELF), found text starting with \"not a librar\" (a plugin library is the .so file that 'swift build' writes to .build/<configuration>/)"
      ])
  }

  @Test func refusesATruncatedLibrary() throws {
    let whole = try Fixtures.bytes(plugin("notes"))
    let path = try fixtures.write(Array(whole.prefix(whole.count / 2)), to: "libHalf.so")
    let problems = gate([candidate("notes", path)]).problems
    #expect(problems.count == 1)
    #expect(
      problems.first?.hasPrefix(
        "notes: library '\(path)' (named in \(origin)): field 'e_shoff': expected an offset inside the file (\(whole.count / 2) bytes), found "
      ) == true)
  }

  @Test func refusesAnObjectFile() throws {
    let source = fixtures.directory + "/object.c"
    try "int x = 1;\n".write(toFile: source, atomically: true, encoding: .utf8)
    let path = fixtures.directory + "/object.o"
    try Fixtures.cc(["-c", "-o", path, source])
    let problems = gate([candidate("notes", path)]).problems
    #expect(
      problems.first
        == "notes: library '\(path)' (named in \(origin)): field 'e_type': expected ET_DYN (3): a shared library, found ET_REL (1): an object file; link it with -shared (build the plugin as a .dynamic library product)"
    )
  }

  @Test func refusesALibraryForAnotherMachine() throws {
    var bytes = try Fixtures.bytes(plugin("notes"))
    let other: ELFMachine = ELFMachine.host == .aarch64 ? .amd64 : .aarch64
    bytes[18] = UInt8(other.rawValue & 0xff)
    bytes[19] = UInt8(other.rawValue >> 8)
    let path = try fixtures.write(bytes, to: "libForeign.so")
    #expect(
      gate([candidate("notes", path)]).problems == [
        "notes: library '\(path)' (named in \(origin)): field 'e_machine': expected \(ELFMachine.host), found \(other) (the library was built for another processor; rebuild it on this host)"
      ])
    #expect("\(ELFMachine.aarch64)" == "AArch64 (EM_AARCH64 = 183)")
  }

  // MARK: The descriptor

  @Test func refusesALibraryWithoutDescriptor() throws {
    let path = try fixtures.library("Plain", descriptor: nil)
    #expect(
      gate([candidate("notes", path)]).problems == [
        "notes: library '\(path)' (named in \(origin)): field 'apiary_plugin': the library has no 'apiary_plugin' section (it was not built as an Apiary plugin; a plugin package has a descriptor target with APIARY_PLUGIN(...) (see 'apiary plugin new'))"
      ])
  }

  @Test func refusesAMalformedDescriptor() throws {
    let path = try plugin("notes", extra: ["colour blue"])
    #expect(
      gate([candidate("notes", path)]).problems == [
        "notes: library '\(path)' (named in \(origin)): field 'colour' at apiary_plugin line 9: unknown key (known keys: descriptor, apiary, abi, compiler, triple, plugin, version, configuration, module, target, requires)"
      ])
  }

  @Test func refusesAnotherABICompilerAndTripleInOnePass() throws {
    let path = try plugin(
      "notes",
      replacing: [
        "abi": "9c1d44", "compiler": "Clang 16.0.0", "triple": "aarch64-unknown-linux-gnu",
      ])
    #expect(
      gate([candidate("notes", path)]).problems == [
        "notes: library '\(path)' (named in \(origin)): field 'abi' at apiary_plugin line 3: expected 3f2a9c, found 9c1d44 (the plugin was built against another Apiary; rebuild it with this host's Apiary: 'swift build' in its package)",
        "notes: library '\(path)' (named in \(origin)): field 'compiler' at apiary_plugin line 4: expected Clang 17.0.6 (test), found Clang 16.0.0 (the plugin was built by another Swift toolchain, and Swift has no ABI stability on Linux; rebuild it with this host's toolchain: 'swift build' in its package)",
        "notes: library '\(path)' (named in \(origin)): field 'triple' at apiary_plugin line 5: expected x86_64-unknown-linux-gnu, found aarch64-unknown-linux-gnu (the plugin was built for another platform; rebuild it for this host)",
      ])
  }

  @Test func refusesAPluginForAnotherApiary() throws {
    let path = try plugin("notes", requires: ["apiary >=2.0.0 <3.0.0"])
    #expect(
      gate([candidate("notes", path)]).problems == [
        "notes: library '\(path)' (named in \(origin)): field 'requires apiary' at apiary_plugin line 9: expected a host whose Apiary is in >=2.0.0 <3.0.0, found Apiary 1.4.0 (use a plugin version made for this Apiary, or a host in that range)"
      ])
  }

  // MARK: The manifest's claims

  @Test func refusesAnotherNameOrVersionThanTheManifestClaims() throws {
    let path = try plugin("notes", version: "1.1.0")
    #expect(
      gate([candidate("notebook", path, version: "1.0.0")]).problems == [
        "notebook: library '\(path)' (named in Manifests/modules/notebook.json: modules[0].library): field 'plugin' at apiary_plugin line 6: expected notebook, found notes (the manifest names another plugin than the library holds; fix the manifest's name or its library path)",
        "notebook: library '\(path)' (named in Manifests/modules/notebook.json: modules[0].library): field 'version' at apiary_plugin line 7: expected 1.0.0, found 1.1.0 (the manifest's version differs from the library's; update the manifest or rebuild the plugin)",
      ])
    #expect(gate([candidate("notes", path, version: "1.1.0+build.9")]).problems == [])
  }

  @Test func refusesAnotherSHA256() throws {
    let path = try plugin("notes")
    let actual = SHA256.hex(of: try Fixtures.bytes(path))
    let wrong = String(repeating: "0", count: 64)
    #expect(
      gate([candidate("notes", path, sha256: wrong)]).problems == [
        "notes: library '\(path)' (named in \(origin)): field 'sha256': expected \(wrong), found \(actual) (the file changed since the manifest was written; reinstall the plugin, or update the manifest's sha256 if this build is the one you trust)"
      ])
    #expect(gate([candidate("notes", path, sha256: actual.uppercased())]).problems == [])
  }

  // MARK: The symbols

  @Test func refusesAPluginWithoutEntrySymbol() throws {
    let path = try plugin("notes", entry: false)
    #expect(
      gate([candidate("notes", path)]).problems == [
        "notes: library '\(path)' (named in \(origin)): field 'apiary_plugin_entry': expected a symbol defined in .dynsym, found none (dlsym would fail: \(path): undefined symbol: apiary_plugin_entry) (the descriptor exports modules or targets, so the library must export @_cdecl(\"apiary_plugin_entry\"); 'apiary plugin new' scaffolds it)"
      ])
  }

  @Test func refusesAnEmbeddedCopyOfApiary() throws {
    let path = try plugin(
      "notes",
      source: Fixtures.swiftSymbol("$s6Apiary6KernelCMn", "kernel")
        + Fixtures.swiftSymbol("$s6Apiary6ModuleMp", "module")
        + Fixtures.swiftSymbol("$s6Apiary6KernelC4bootyyF", "boot"))
    #expect(
      gate([candidate("notes", path)]).problems == [
        "notes: library '\(path)' (named in \(origin)): field '.dynsym': the library embeds its own copy of module 'Apiary'; expected Apiary's types only referenced, bound at load to the one shared copy, found 2 type or protocol descriptors of Apiary defined here, e.g. $s6Apiary6KernelCMn (it linked Apiary statically, which splits type identity (casts fail, singletons split); depend on Apiary's dynamic library product ('Apiary') by package path instead of its targets)"
      ])
  }

  /// A copy of several of the ABI's modules (Apiary linked statically) is one problem, naming
  /// them: it was one a module, eight near-identical lines for a whole copy of Apiary.
  @Test func anEmbeddedCopyOfSeveralABIModulesIsOneProblem() throws {
    var host = Fixtures.host
    host.abiModules = ["Apiary", "ApiaryKernel"]
    let path = try plugin(
      "notes",
      source: Fixtures.swiftSymbol("$s6Apiary6ModuleMp", "module")
        + Fixtures.swiftSymbol("$s12ApiaryKernel6KernelCMn", "kernel"))
    let problems = gate([candidate("notes", path)], host: host).problems
    #expect(problems.count == 1, "\(problems)")
    #expect(
      problems.first?.contains(
        "the library embeds its own copy of Apiary (modules Apiary, ApiaryKernel); expected "
          + "Apiary's types only referenced, bound at load to the one shared copy, found 2 type "
          + "or protocol descriptors of Apiary defined here, e.g. $s12ApiaryKernel6KernelCMn")
        == true, "\(problems)")
  }

  @Test func extendingApiaryTypesIsNotAnEmbeddedCopy() throws {
    // What a plugin that extends `Kernel` and conforms it to its own protocol defines.
    let path = try plugin(
      "notes",
      source: Fixtures.swiftSymbol("$s6Apiary6KernelC11NotesPluginE4moreSiyF", "more")
        + Fixtures.swiftSymbol("$s6Apiary6KernelC11NotesPlugin5LocalAAMc", "conformance")
        + Fixtures.swiftSymbol("$s6Apiary6KernelC11NotesPluginE6HelperVMn", "helper"))
    #expect(gate([candidate("notes", path)]).problems == [])
  }

  @Test func refusesAnEmbeddedCopyOfAContractLibrary() throws {
    _ = try notebookKit(in: "shared")
    let search = try plugin("search", in: "shared", flags: linkingNotebookKit("shared"))
    let notes = try plugin(
      "notes", source: Fixtures.swiftSymbol("$s11NotebookKit5EntryVMn", "entry"))
    let problems = gate([candidate("notes", notes), candidate("search", search)]).problems
    #expect(
      problems == [
        "notes: library '\(notes)' (named in \(origin)): field '.dynsym': the library embeds its own copy of module 'NotebookKit'; expected NotebookKit's types only referenced, bound at load to the one shared copy, found 1 type or protocol descriptor of NotebookKit defined here, e.g. $s11NotebookKit5EntryVMn (it linked NotebookKit statically, which splits type identity (casts fail, singletons split); depend on the contract library's dynamic product by package path instead of its targets)"
      ])
  }

  // MARK: Contract libraries

  /// Also when the plugin requires the contract library besides needing it: one problem, not
  /// one per reason.
  @Test(arguments: [[], ["NotebookKit >=1.0.0"]])
  func checksTheContractLibraryTheLoaderWillUse(requires: [String]) throws {
    let kit = try notebookKit(in: "notes", replacing: ["abi": "9c1d44"])
    let notes = try plugin(
      "notes", in: "notes", requires: requires, flags: linkingNotebookKit("notes"))
    let folder = fixtures.directory + "/notes"
    let result = gate([candidate("notes", notes)])
    #expect(result.plugins == [])
    #expect(
      result.problems == [
        "NotebookKit: library '\(kit)' (named in DT_NEEDED 'libNotebookKit.so' of '\(notes)', found through RUNPATH '$ORIGIN' = '\(folder)'): field 'abi' at apiary_plugin line 3: expected 3f2a9c, found 9c1d44 (the plugin was built against another Apiary; rebuild it with this host's Apiary: 'swift build' in its package)",
        "notes: library '\(notes)' (named in \(origin)): field 'DT_NEEDED': needs contract library 'NotebookKit' ('\(kit)'), which the gate refused (see the problems of 'NotebookKit' above)",
      ])
  }

  @Test func findsContractLibrariesThroughRPATHToo() throws {
    let kit = try notebookKit(in: "notes")
    let notes = try plugin(
      "notes", in: "notes",
      flags: linkingNotebookKit("notes", rpathFlags: ["-Wl,--disable-new-dtags"]))
    let (plugins, problems) = LoadGate.check([candidate("notes", notes)], host: Fixtures.host)
    #expect(problems.map(\.description) == [])
    #expect(plugins.first?.contracts.map(\.path) == [kit])
  }

  @Test func librariesTheHostAlreadyLoadedAreNotLookedFor() throws {
    // The loader binds a needed name the process already has to that copy, so the file next to
    // the plugin (even a broken one) is never opened.
    _ = try notebookKit(in: "notes", replacing: ["abi": "9c1d44"])
    let notes = try plugin("notes", in: "notes", flags: linkingNotebookKit("notes"))
    var host = Fixtures.host
    host.loadedLibraries = ["libNotebookKit.so"]
    let (plugins, problems) = LoadGate.check([candidate("notes", notes)], host: host)
    #expect(problems.map(\.description) == [])
    #expect(plugins.map(\.contracts.count) == [0])
  }

  /// The loader compares a needed name with the names it has loaded byte for byte: `é` as
  /// one code point and as `e` and a combining accent are two names, so a library whose soname
  /// is spelt one way does not stand for a needed name spelt the other; the file found on the
  /// search path for it is the one checked (here refused).
  @Test func neededNamesAreComparedByTheirBytes() throws {
    let composed = "libcaf\u{E9}.so"
    let decomposed = "libcafe\u{301}.so"
    let a = try plugin("a", in: "a", flags: ["-Wl,-soname,\(decomposed)"])
    let kit = try fixtures.library(
      "caf\u{E9}", in: "b",
      descriptor: Fixtures.descriptor(plugin: "Cafe", replacing: ["abi": "9c1d44"]),
      entry: false, flags: ["-Wl,-soname,\(composed)"])
    let b = try plugin(
      "b", in: "b",
      flags: [
        "-L\(fixtures.directory)/b", "-Wl,--no-as-needed", "-l:\(composed)", "-Wl,-rpath,$ORIGIN",
      ])
    let result = gate([candidate("a", a), candidate("b", b)])
    #expect(result.plugins == ["a"])
    #expect(result.problems.first?.hasPrefix("Cafe: library '\(kit)'") == true)
  }

  @Test func theFirstLoadedCopyOfAContractLibraryIsTheOneUsed() throws {
    let first = try notebookKit(in: "a", version: "1.0.0")
    _ = try notebookKit(in: "b", version: "2.0.0")
    let a = try plugin("a", in: "a", flags: linkingNotebookKit("a"))
    let b = try plugin(
      "b", in: "b", requires: ["NotebookKit ^2.0.0"], flags: linkingNotebookKit("b"))
    let result = gate([candidate("a", a), candidate("b", b)])
    #expect(result.plugins == ["a"])
    #expect(
      result.problems == [
        "b: library '\(b)' (named in Manifests/modules/b.json: modules[0].library): field 'requires' at apiary_plugin line 9: expected NotebookKit ^2.0.0, found NotebookKit 1.0.0 in 'NotebookKit' (library '\(first)', named in DT_NEEDED 'libNotebookKit.so' of '\(a)', found through RUNPATH '$ORIGIN' = '\(fixtures.directory)/a') (a process loads one copy of a contract library, and the one loaded first is older than this plugin's range: rebuild the plugins that bring that copy against a version in the range, or this plugin against NotebookKit 1.0.0 with its line changed to 'requires NotebookKit ^1.0.0')"
      ])
  }

  /// A plugin whose own copy of a contract library (the one it was built against) is of a
  /// version the copy loaded first is not compatible with: refused, even with a `requires` line
  /// that admits the loaded copy (stale: left as it was before the rebuild). A compatible
  /// newer copy loaded first is accepted.
  @Test(arguments: [[], ["NotebookKit >=1.0.0 <2.0.0"]])
  func aPluginBuiltAgainstAnotherCopyOfAContractLibrarySaysSo(requires: [String]) throws {
    let first = try notebookKit(in: "a", version: "1.0.0")
    let own = try notebookKit(in: "b", version: "2.0.0")
    let a = try plugin("a", in: "a", flags: linkingNotebookKit("a"))
    let b = try plugin("b", in: "b", requires: requires, flags: linkingNotebookKit("b"))
    let result = gate([candidate("a", a), candidate("b", b)])
    #expect(result.plugins == ["a"])
    let stale = requires.isEmpty ? "" : " (its 'requires' line, >=1.0.0 <2.0.0, is stale)"
    #expect(
      result.problems == [
        "b: library '\(b)' (named in Manifests/modules/b.json: modules[0].library): field 'DT_NEEDED': expected NotebookKit ^2.0.0, as it was built against NotebookKit 2.0.0 ('\(own)')\(stale), found NotebookKit 1.0.0 ('\(first)', loaded first) (a process loads one copy of a contract library, and the one loaded first is older than this plugin's range: rebuild the plugins that bring that copy against a version in the range, or this plugin against NotebookKit 1.0.0 with its line changed to 'requires NotebookKit ^1.0.0')"
      ])
  }

  @Test func aCompatibleNewerCopyLoadedFirstIsUsed() throws {
    _ = try notebookKit(in: "a", version: "1.2.0")
    _ = try notebookKit(in: "b", version: "1.0.0")
    let a = try plugin("a", in: "a", flags: linkingNotebookKit("a"))
    let b = try plugin("b", in: "b", flags: linkingNotebookKit("b"))
    let result = gate([candidate("a", a), candidate("b", b)])
    #expect(result.plugins == ["a", "b"], "\(result.problems)")
  }

  /// A contract library's incompatible bump: the copy loaded first is 2.0.0, and this plugin
  /// was built against 1.x. The fix named first is to rebuild this one.
  @Test func aNewerContractLibraryThanARangeAllowsSaysWhatToRebuild() throws {
    _ = try notebookKit(in: "a", version: "2.0.0")
    _ = try notebookKit(in: "b", version: "1.0.0")
    let a = try plugin("a", in: "a", flags: linkingNotebookKit("a"))
    let b = try plugin(
      "b", in: "b", requires: ["NotebookKit >=1.0.0 <2.0.0"], flags: linkingNotebookKit("b"))
    let result = gate([candidate("a", a), candidate("b", b)])
    #expect(result.plugins == ["a"])
    #expect(
      result.problems.first?.hasSuffix(
        "(a process loads one copy of a contract library, and the one loaded first is newer "
          + "than this plugin's range: rebuild this plugin against NotebookKit 2.0.0 with its "
          + "line changed to 'requires NotebookKit ^2.0.0', or the plugins that bring that copy "
          + "against a version in the range)") == true, "\(result.problems)")
  }

  // MARK: Across plugins

  @Test func refusesTheSamePluginNameOrExportedTypeTwice() throws {
    let first = try plugin("notes", in: "one")
    let second = try plugin("notes", in: "two")
    let result = gate([candidate("notes", first), candidate("notes", second)])
    #expect(result.plugins == ["notes"])
    #expect(
      result.problems == [
        "notes: library '\(second)' (named in \(origin)): field 'plugin' at apiary_plugin line 6: plugin name 'notes' is also used by 'notes' (library '\(first)', named in \(origin)) (each plugin is loaded once; remove one of the two, or rename one plugin)",
        "notes: library '\(second)' (named in \(origin)): field 'module': type 'NotesPlugin.NotesModule' is also exported by 'notes' (library '\(first)', named in \(origin)) (a type may come from one library only; remove one of the two)",
      ])
  }

  @Test func refusesUnmetRequirements() throws {
    let search = try plugin("search", version: "1.0.0")
    let notes = try plugin("notes", requires: ["search >=2.0.0", "tags ^1.0.0"])
    let result = gate([candidate("search", search), candidate("notes", notes)])
    #expect(result.plugins == ["search"])
    #expect(
      result.problems == [
        "notes: library '\(notes)' (named in \(origin)): field 'requires' at apiary_plugin line 9: expected search >=2.0.0, found search 1.0.0 in 'search' (library '\(search)', named in Manifests/modules/search.json: modules[0].library) (install a version of 'search' in that range, or widen this plugin's 'requires search' line to the one installed and rebuild it)",
        "notes: library '\(notes)' (named in \(origin)): field 'requires' at apiary_plugin line 10: no plugin or contract library named 'tags' is loaded; expected tags ^1.0.0, found nothing (for a plugin, add a manifest that loads 'tags'; for a contract library, ship it where this one's RUNPATH finds it)",
      ])
  }

  @Test func refusesACycleAndPrintsItsPath() throws {
    let a = try plugin("a", requires: ["b *"])
    let b = try plugin("b", requires: ["c *"])
    let c = try plugin("c", requires: ["a *"])
    let d = try plugin("d", requires: ["a *"])
    let result = gate([candidate("a", a), candidate("b", b), candidate("c", c), candidate("d", d)])
    #expect(result.plugins == [])
    #expect(
      result.problems == [
        "a: library '\(a)' (named in Manifests/modules/a.json: modules[0].library): field 'requires' at apiary_plugin line 9: plugins require each other in a cycle: a → b → c → a (plugins in a cycle cannot be ordered; remove one of these requires lines)",
        "d: library '\(d)' (named in Manifests/modules/d.json: modules[0].library): field 'requires': requires 'a', which the gate refused (see the problems of 'a' above)",
      ])
  }

  @Test func aPluginRequiringARefusedPluginIsRefused() throws {
    let notes = try plugin("notes", entry: false)
    let search = try plugin("search", requires: ["notes ^1.0.0"])
    let result = gate([candidate("notes", notes), candidate("search", search)])
    #expect(result.plugins == [])
    #expect(result.problems.count == 2)
    #expect(
      result.problems.last
        == "search: library '\(search)' (named in Manifests/modules/search.json: modules[0].library): field 'requires': requires 'notes', which the gate refused (see the problems of 'notes' above)"
    )
  }
}
