import ApiaryPluginGate
import Testing

@Suite struct PluginDescriptorTests {
  private func parse(_ text: String) -> (PluginDescriptor?, [String]) {
    let (descriptor, problems) = PluginDescriptor.parse(Array(text.utf8) + [0], file: "/p/libX.so")
    return (descriptor, problems.map(\.description))
  }

  @Test func readsEveryKey() throws {
    let text = Fixtures.descriptor(
      plugin: "notes", version: "1.2.0", modules: ["NotesPlugin.NotesModule"],
      targets: ["NotesPlugin.NotesTarget"],
      requires: ["NotebookKit >=1.0.0 <2.0.0", "apiary ^1.0.0"])
    let (descriptor, problems) = parse(text)
    #expect(problems == [])
    let parsed = try #require(descriptor)
    #expect(parsed.format == 1)
    #expect(parsed.plugin == "notes")
    #expect(parsed.version == SemanticVersion(1, 2, 0))
    #expect(parsed.apiary == SemanticVersion(1, 4, 0))
    #expect(parsed.abi == "3f2a9c")
    #expect(parsed.compiler == "Clang 17.0.6 (test)")
    #expect(parsed.triple == "x86_64-unknown-linux-gnu")
    #expect(parsed.modules == ["NotesPlugin.NotesModule"])
    #expect(parsed.targets == ["NotesPlugin.NotesTarget"])
    #expect(parsed.requires.map(\.name) == ["NotebookKit", "apiary"])
    #expect(parsed.requires.map(\.range.description) == [">=1.0.0 <2.0.0", "^1.0.0"])
    #expect(parsed.requires.map(\.line) == [10, 11])
    #expect(parsed.line(of: "abi") == 3 && parsed.line(of: "module") == nil)
    #expect(!parsed.isContractLibrary)
    #expect(parsed.text == text)
  }

  @Test func configurationIsOptionalAndDebugOrRelease() {
    let (plain, plainProblems) = parse(Fixtures.descriptor(plugin: "notes"))
    #expect(plainProblems == [] && plain?.configuration == nil)
    let (release, _) = parse(Fixtures.descriptor(plugin: "notes", extra: ["configuration release"]))
    #expect(release?.configuration == "release")
    let (_, problems) = parse(Fixtures.descriptor(plugin: "notes", extra: ["configuration fast"]))
    #expect(
      problems == [
        "library '/p/libX.so': field 'configuration' at apiary_plugin line 8: expected debug or release, found 'fast'"
      ])
  }

  @Test func unknownAndRepeatedKeysAreReportedWithTheirLines() {
    let text = Fixtures.descriptor(plugin: "notes", extra: ["colour blue", "version 2.0.0"])
    let (descriptor, problems) = parse(text)
    #expect(
      problems == [
        "library '/p/libX.so': field 'colour' at apiary_plugin line 8: unknown key (known keys: descriptor, apiary, abi, compiler, triple, plugin, version, configuration, module, target, requires)",
        "library '/p/libX.so': field 'version' at apiary_plugin line 9: repeated (first on line 7) ('version' may appear once)",
      ])
    #expect(descriptor?.version == SemanticVersion(1, 0, 0))
  }

  /// A type name with a control character (a damaged or hostile descriptor) is refused by the
  /// gate, not left to the entry point's comparison after the library's code ran.
  @Test func aTypeNameWithAControlCharacterIsRefused() {
    let text =
      "descriptor 1\nplugin notes\nversion 1.0.0\nmodule Notes.Not\u{1B}es\ntarget Notes.T\u{7F}\n"
    let (_, problems) = parse(text)
    #expect(problems.filter { $0.contains("a Swift type name with its module") }.count == 2)
  }

  @Test func missingKeysAndBadValues() {
    let text =
      "descriptor 1\nplugin notes\nversion 1.0\nmodule Notes\nrequires NotebookKit >=1\nrequires x\nnovalue\n"
    let (descriptor, problems) = parse(text)
    #expect(descriptor == nil)
    #expect(
      problems == [
        "library '/p/libX.so': field 'version' at apiary_plugin line 3: '1.0' is not a SemVer version: expected MAJOR.MINOR.PATCH (like 1.2.3), found 2 parts",
        "library '/p/libX.so': field 'module' at apiary_plugin line 4: expected a Swift type name with its module, like NotesPlugin.NotesModule, found 'Notes'",
        "library '/p/libX.so': field 'requires' at apiary_plugin line 5: version range '>=1': expected MAJOR.MINOR.PATCH (like 1.2.3), found 1 part",
        "library '/p/libX.so': field 'requires' at apiary_plugin line 6: expected 'requires <name> <range>', like 'requires NotebookKit ^1.0.0', found 'requires x'",
        "library '/p/libX.so': apiary_plugin line 7: expected 'key value', found 'novalue'",
        "library '/p/libX.so': field 'apiary': missing; expected a line 'apiary …' (written by ApiaryPlugin.h; build the plugin with Apiary's header)",
        "library '/p/libX.so': field 'abi': missing; expected a line 'abi …' (written by ApiaryPlugin.h; build the plugin with Apiary's header)",
        "library '/p/libX.so': field 'compiler': missing; expected a line 'compiler …' (written by ApiaryPlugin.h; build the plugin with Apiary's header)",
        "library '/p/libX.so': field 'triple': missing; expected a line 'triple …' (written by ApiaryPlugin.h; build the plugin with Apiary's header)",
      ])
  }

  @Test func requiringTheSameNameTwiceIsAProblem() {
    let text = Fixtures.descriptor(plugin: "a", requires: ["b >=1.0.0", "b <2.0.0"])
    #expect(
      parse(text).1 == [
        "library '/p/libX.so': field 'requires' at apiary_plugin line 9: 'b' is already required on line 8 (write all of its bounds on one line, like '>=1.0.0 <2.0.0')"
      ])
  }

  @Test func sectionFraming() {
    let text = Array(Fixtures.descriptor(plugin: "a").utf8)
    let unterminated = PluginDescriptor.parse(text, file: "f").problems.map(\.description)
    #expect(
      unterminated == [
        "library 'f': field 'apiary_plugin': the descriptor is not NUL-terminated (write it with the APIARY_PLUGIN macro of ApiaryPlugin.h)"
      ])
    let twice = PluginDescriptor.parse(text + [0] + text + [0, 0, 0], file: "f")
    #expect(twice.descriptor != nil)
    #expect(
      twice.problems.map(\.description) == [
        "library 'f': field 'apiary_plugin': the section holds more than one descriptor (a library may have exactly one APIARY_PLUGIN; was a second descriptor linked in?)"
      ])
    #expect(PluginDescriptor.parse(text + [0, 0, 0, 0], file: "f").problems.isEmpty)
    let invalid = PluginDescriptor.parse([0x70, 0xff, 0xfe, 0], file: "f").problems.map(
      \.description)
    #expect(invalid == ["library 'f': field 'apiary_plugin': the descriptor is not valid UTF-8"])
  }

  @Test func contractLibrariesExportNothing() throws {
    let (descriptor, _) = parse(Fixtures.descriptor(plugin: "NotebookKit"))
    #expect(try #require(descriptor).isContractLibrary)
  }
}
