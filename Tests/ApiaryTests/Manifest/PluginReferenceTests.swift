import Apiary
import Testing

/// A module's `library`, `version` and `sha256`, in JSON and plist.
@Suite struct PluginReferenceTests {
  static let digest = String(repeating: "ab", count: 32)

  @Test func namesPluginFollowsThePlugin() {
    var module = ModuleManifest(name: "notes", type: "NotesPlugin.NotesModule")
    #expect(!module.namesPlugin)
    module.plugin = PluginReference(library: "libNotesPlugin.so", version: "1.0.0")
    #expect(module.namesPlugin)
    module.plugin = nil
    #expect(!module.namesPlugin)
  }

  @Test func jsonAndPlistNameTheSameLibrary() throws {
    let json = decodeModules(
      """
      {"schemaVersion": 1, "modules": [
        {"name": "notes", "type": "NotesPlugin.NotesModule",
         "library": "../plugins/libNotesPlugin.so", "version": "1.2.0",
         "sha256": "\(Self.digest.uppercased())"}]}
      """, file: "Manifests/modules/notes.json")
    let plist = decodeModules(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
        <key>schemaVersion</key><integer>1</integer>
        <key>modules</key><array><dict>
          <key>name</key><string>notes</string>
          <key>type</key><string>NotesPlugin.NotesModule</string>
          <key>library</key><string>../plugins/libNotesPlugin.so</string>
          <key>version</key><string>1.2.0</string>
          <key>sha256</key><string>\(Self.digest)</string>
        </dict></array>
      </dict></plist>
      """, file: "Manifests/modules/notes.plist")
    #expect(json.problems.isEmpty && plist.problems.isEmpty, "\(json.problems) \(plist.problems)")
    for set in [json, plist] {
      let plugin = try #require(set.modules.first?.plugin)
      #expect(plugin.library == "../plugins/libNotesPlugin.so")
      #expect(plugin.version == "1.2.0")
      #expect(plugin.sha256 == Self.digest)
      #expect(plugin.path == "Manifests/modules/../plugins/libNotesPlugin.so")
      #expect(plugin.source?.keyPath == "modules[0].library")
    }
    #expect(json.modules.first?.plugin?.source?.line == 3)
  }

  @Test func modulesWithoutLibraryHaveNoPlugin() {
    let set = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "A.AModule"}]}"#)
    #expect(set.problems.isEmpty)
    #expect(set.modules.first?.plugin == nil)
  }

  /// An empty `library` names no file: it is a manifest problem, not the manifest's own
  /// directory refused later by the load gate as "found a directory".
  @Test func anEmptyLibraryIsAProblem() {
    let set = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "A.AModule", "library": "", "version": "1.0.0"}]}"#
    )
    let text = set.problems.map(\.description)
    #expect(text.count == 1, "\(text)")
    #expect(
      text.first?.contains("modules[0].library: expected the path of the plugin's shared library")
        == true, "\(text)")
    #expect(set.modules.first?.plugin == nil)
  }

  @Test func problemsArePositioned() {
    let set = decodeModules(
      """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "A.AModule", "library": "liba.so"},
        {"name": "b", "type": "B.BModule", "library": "libb.so", "version": "1.0.0",
         "sha256": "abc"},
        {"name": "c", "type": "C.CModule", "version": "1.0.0"}]}
      """)
    let text = set.problems.map(\.description)
    #expect(text.count == 3, "\(text)")
    #expect(
      text.contains { $0.contains(":2:3 modules[0]: missing required key 'version'") }, "\(text)")
    #expect(
      text.contains {
        $0.contains(":4:") && $0.contains("modules[1].sha256: expected 64 hexadecimal digits")
      },
      "\(text)")
    #expect(
      text.contains { $0.contains("modules[2].version: 'version' describes a plugin library") },
      "\(text)")
    #expect(set.modules.map { $0.plugin?.library } == [nil, "libb.so", nil])
    #expect(set.modules[1].plugin?.sha256 == nil)
  }

  /// A module whose `library` cannot be used (no `version`, or not a string) gets that problem
  /// alone: its types are in the library, which was never loaded, so they are not reported
  /// "not found" as well, nor its `version` as misplaced.
  @Test func aBrokenLibraryReferenceIsTheOnlyProblem() {
    let set = decodeModules(
      """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "A.AModule", "library": "liba.so",
         "targets": [{"name": "a", "type": "A.ATarget"}]},
        {"name": "b", "type": "B.BModule", "library": 42, "version": "1.0.0",
         "services": [{"protocol": "B.Service", "implementation": "B.Implementation"}]}]}
      """)
    let problems =
      set.problems
      + ManifestLoader.validate(application: nil, modules: set.modules, catalog: TypeCatalog())
    let text = problems.map(\.description)
    #expect(text.count == 2, "\(text)")
    #expect(text.first?.contains(":2:3 modules[0]: missing required key 'version'") == true)
    #expect(text.last?.contains("modules[1].library: expected string, found integer 42") == true)
    #expect(set.modules.map(\.namesBrokenPlugin) == [true, true])
  }
}
