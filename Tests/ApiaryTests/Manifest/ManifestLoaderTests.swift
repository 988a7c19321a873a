import Foundation
import Testing

@testable import Apiary
@testable import ApiaryManifest

/// A temporary manifests directory, removed when the test ends.
final class ManifestDirectory {
  let path: String

  init() throws {
    path = NSTemporaryDirectory() + "apiary-manifest-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func write(_ name: String, _ text: String) throws {
    let file = "\(path)/\(name)"
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
  }
}

func moduleFile(_ modules: String...) -> String {
  #"{"schemaVersion": 1, "modules": ["# + modules.joined(separator: ", ") + "]}"
}

@Suite("Manifest: loading directories")
struct ManifestLoaderTests {
  let loader: ManifestLoader = {
    let catalog = TypeCatalog()
    catalog.register(ValidNotesModule.self, as: "T.M")
    return ManifestLoader(catalog: catalog)
  }()

  @Test func loadsApplicationAndModuleDirectoryInNameOrder() throws {
    let directory = try ManifestDirectory()
    try directory.write(
      "app.json",
      #"{"schemaVersion": 1, "name": "Notebook", "scheme": "notebook", "modules": ["modules", "extra/one.json"]}"#
    )
    try directory.write("modules/b.json", moduleFile(#"{"name": "b", "type": "T.M"}"#))
    try directory.write(
      "modules/a.json",
      moduleFile(
        #"{"name": "a1", "type": "T.M"}"#, #"{"name": "a2", "type": "T.M", "dependencies": ["b"]}"#)
    )
    try directory.write("modules/notes.txt", "ignored")
    try directory.write("modules/.hidden.json", "ignored")
    try directory.write("modules/nested/c.json", moduleFile(#"{"name": "c", "type": "T.M"}"#))
    try directory.write("extra/one.json", moduleFile(#"{"name": "one", "type": "T.M"}"#))
    let set = loader.load(directory: directory.path)
    #expect(set.problems.isEmpty, "\(set.problems)")
    #expect(set.application?.name == "Notebook")
    #expect(set.modules.map(\.name) == ["a1", "a2", "b", "one"])
    #expect(
      set.files == [
        "\(directory.path)/app.json", "\(directory.path)/modules/a.json",
        "\(directory.path)/modules/b.json", "\(directory.path)/extra/one.json",
      ])
    #expect(
      set.modules[1].source
        == SourceLocation(
          file: "\(directory.path)/modules/a.json", keyPath: "modules[1]", line: 1, column: 65))
  }

  @Test func reportsProblemsAcrossFilesInOnePass() throws {
    let directory = try ManifestDirectory()
    try directory.write(
      "app.json",
      #"{"schemaVersion": 1, "name": "N", "scheme": "n", "modules": ["modules", "gone"]}"#)
    try directory.write(
      "modules/a.json", moduleFile(#"{"name": "a", "type": "T.M", "dependencies": ["c"]}"#))
    try directory.write("modules/b.json", #"{"schemaVersion": 1, "modules": [}"#)
    try directory.write(
      "modules/c.json", moduleFile(#"{"name": "c", "type": "T.M", "dependencies": ["a"]}"#))
    let set = loader.load(directory: directory.path)
    let base = directory.path
    #expect(
      set.problems.map(\.description) == [
        "\(base)/modules/b.json:1:34 modules[0]: expected a value, found '}'",
        "\(base)/app.json:1:73 modules[1]: no such file or directory: \(base)/gone",
        "\(base)/modules/a.json:1:80 modules[0].dependencies[0]: dependency cycle: a → c → a; "
          + "remove one of these dependencies",
      ])
    #expect(set.application != nil)
    #expect(set.modules.map(\.name) == ["a", "c"])
  }

  /// A problem found across modules is placed at the value it is about (the type, the
  /// dependency), not at the module's `{`: the file is parsed again on that error path.
  @Test func crossModuleProblemsPointAtTheValue() throws {
    let directory = try ManifestDirectory()
    try directory.write("app.json", #"{"schemaVersion": 1, "name": "N", "scheme": "n"}"#)
    try directory.write(
      "modules/a.json",
      """
      {
        "schemaVersion": 1,
        "modules": [
          {
            "name": "a",
            "type": "X.A",
            "dependencies": ["b"]
          }
        ]
      }
      """)
    let set = loader.load(directory: directory.path)
    let places = set.problems.map { problem in
      let at = problem.location
      return "\(at.keyPath) \(at.line ?? 0):\(at.column ?? 0)"
    }
    #expect(places.sorted() == ["modules[0].dependencies[0] 7:24", "modules[0].type 6:15"])
  }

  /// A directory's files are read one after another into one buffer: a long file followed by
  /// short ones decodes exactly as each file alone, and problems come in file order.
  @Test func filesOfADirectoryShareOneBuffer() throws {
    let directory = try ManifestDirectory()
    try directory.write(
      "app.json", #"{"schemaVersion": 1, "name": "N", "scheme": "n", "modules": ["modules"]}"#)
    let names = (0..<40).map { String(format: "m%03d", $0) }
    let long = String(repeating: "x", count: 5_000)
    for name in names {
      switch name {
      case "m010":
        try directory.write(
          "modules/\(name).json",
          moduleFile(#"{"name": "m010", "type": "T.M", "config": {"long": "\#(long)"}}"#))
      case "m020":
        try directory.write("modules/\(name).json", #"{"schemaVersion": 1, "modules": [}"#)
      case "m025":
        try directory.write(
          "modules/\(name).json", moduleFile(#"{"name": "m025", "type": "T.M", "levl": 1}"#))
      case "m030":
        try FileManager.default.createDirectory(
          atPath: "\(directory.path)/modules/m030.json", withIntermediateDirectories: true)
      default:
        try directory.write(
          "modules/\(name).json", moduleFile(#"{"name": "\#(name)", "type": "T.M"}"#))
      }
    }
    let base = "\(directory.path)/modules"
    let set = loader.load(directory: directory.path)
    let alone = try names.filter { $0 != "m030" }.flatMap { name in
      let file = "\(base)/\(name).json"
      return ManifestLoader.decodeModules(
        try Data(contentsOf: URL(fileURLWithPath: file)), file: file
      ).modules
    }
    #expect(set.modules == alone)
    #expect(set.modules.map(\.name) == names.filter { $0 != "m020" && $0 != "m030" })
    #expect(set.modules[10].config["long"] == .string(long))
    #expect(
      set.problems.map(\.description) == [
        "\(base)/m020.json:1:34 modules[0]: expected a value, found '}'",
        "\(base)/m025.json:1:66 modules[0].levl: unknown key 'levl' (did you mean 'level'?)",
        "\(base)/m030.json: not a regular file",
      ])
  }

  /// Listed regular files are read without asking their size first: a file longer than the
  /// first buffer is still read whole, one over the limit is refused with its real size, and
  /// a symbolic link or a directory among them is checked as before.
  @Test func listedFilesAreReadWholeAndCheckedWithoutAskingTheirSizeFirst() throws {
    let directory = try ManifestDirectory()
    try directory.write(
      "app.json",
      #"{"schemaVersion": 1, "name": "N", "scheme": "n", "limits": {"fileSize": 100000}}"#)
    let long = String(repeating: "x", count: 40_000)
    let huge = String(repeating: "y", count: 120_000)
    try directory.write(
      "modules/a.json", moduleFile(#"{"name": "a", "type": "T.M", "config": {"l": "\#(long)"}}"#))
    try directory.write(
      "modules/b.json", moduleFile(#"{"name": "b", "type": "T.M", "config": {"l": "\#(huge)"}}"#))
    try directory.write("modules/c.json", moduleFile(#"{"name": "c", "type": "T.M"}"#))
    try directory.write("d.json", moduleFile(#"{"name": "d", "type": "T.M"}"#))
    try FileManager.default.createSymbolicLink(
      atPath: "\(directory.path)/modules/d.json", withDestinationPath: "\(directory.path)/d.json")
    try FileManager.default.createDirectory(
      atPath: "\(directory.path)/modules/e.json", withIntermediateDirectories: true)
    let base = "\(directory.path)/modules"
    let set = loader.load(directory: directory.path)
    #expect(set.modules.map(\.name) == ["a", "c", "d"])
    #expect(set.modules.first?.config["l"] == .string(long))
    let size = moduleFile(#"{"name": "b", "type": "T.M", "config": {"l": "\#(huge)"}}"#).utf8.count
    #expect(
      set.problems.map(\.description) == [
        "\(base)/b.json: file is \(size) bytes, more than 100000; "
          + ManifestLimits.hint("fileSize"),
        "\(base)/e.json: not a regular file",
      ])
  }

  @Test func applicationManifestAndRepeatedPathsAreReadOnce() throws {
    let directory = try ManifestDirectory()
    try directory.write(
      "app.json",
      #"{"schemaVersion": 1, "name": "N", "scheme": "n", "modules": [".", "a.json", "./a.json"]}"#)
    try directory.write("a.json", moduleFile(#"{"name": "a", "type": "T.M"}"#))
    let set = loader.load(directory: directory.path)
    #expect(set.problems.isEmpty, "\(set.problems)")
    #expect(set.modules.map(\.name) == ["a"])
    #expect(set.files == ["\(directory.path)/app.json", "\(directory.path)/./a.json"])
  }

  @Test func brokenApplicationManifestStillChecksDefaultModules() throws {
    let directory = try ManifestDirectory()
    try directory.write("app.json", #"{"schemaVersion": 1, "name": "N" "scheme": "n"}"#)
    try directory.write("modules/a.json", moduleFile(#"{"name": "a", "typo": "T.M"}"#))
    let set = loader.load(directory: directory.path)
    #expect(set.application == nil)
    #expect(
      set.problems.map(\.message) == [
        "expected ',' or '}' after object member, found '\"'",
        "missing required key 'type' (string)",
        "unknown key 'typo' (did you mean 'type'?)",
      ])
  }

  @Test func normalizedPaths() {
    #expect(ReadablePath.normalized("/a/./b//c/../d.json") == "/a/b/d.json")
    #expect(ReadablePath.normalized("a/../../b") == "../b")
    #expect(ReadablePath.normalized("./m/.") == "m")
    #expect(ReadablePath.normalized("/") == "/")
  }

  /// The directory of the application manifest, as `NSString.deletingLastPathComponent` gave it.
  @Test func directoryOfAFile() {
    #expect(ManifestLoader.directory(of: "Manifests/app.json") == "Manifests")
    #expect(ManifestLoader.directory(of: "/srv/app/Manifests/app.plist") == "/srv/app/Manifests")
    #expect(ManifestLoader.directory(of: "app.json") == "")
    #expect(ManifestLoader.directory(of: "/app.json") == "/")
    #expect(ManifestLoader.directory(of: "a//app.json") == "a")
    #expect(ManifestLoader.directory(of: "a/b/") == "a")
  }

  @Test func missingApplicationManifest() throws {
    let directory = try ManifestDirectory()
    let set = loader.load(directory: directory.path)
    #expect(set.application == nil)
    #expect(set.problems.map(\.kind) == [.unreadable])
    #expect(
      set.problems.first?.description
        == "\(directory.path): no application manifest: expected app.json or app.plist in this "
        + "directory")
  }

  /// With both application manifests, `app.json` is read and the ignored `app.plist` is a problem.
  @Test func bothApplicationManifestsAreAProblemAtTheIgnoredOne() throws {
    let directory = try ManifestDirectory()
    try directory.write(
      "app.json", #"{"schemaVersion": 1, "name": "N", "scheme": "n", "modules": []}"#)
    try directory.write("app.plist", "not even a property list")
    let set = loader.load(directory: directory.path)
    #expect(set.application?.name == "N")
    #expect(set.problems.map(\.kind) == [.duplicateName])
    #expect(
      set.problems.map(\.description) == [
        "\(directory.path)/app.plist: both app.json and app.plist are here; the application "
          + "manifest is app.json (remove one)"
      ])
    #expect(set.files == ["\(directory.path)/app.json"])
  }

  @Test func unreadableManifestsSayWhy() throws {
    let directory = try ManifestDirectory()
    let path = directory.path
    try directory.write("file", "")
    try directory.write("link/.keep", "")
    try FileManager.default.createSymbolicLink(
      atPath: path + "/link/app.json", withDestinationPath: path + "/gone.json")
    let expected = "expected a manifests directory with app.json or app.plist"
    for (manifests, problem) in [
      (path + "/nowhere", "\(path)/nowhere: no such directory; \(expected)"),
      (path + "/file", "\(path)/file: not a directory; \(expected)"),
      // A link to nothing is the application manifest, not a missing one.
      (path + "/link", "\(path)/link/app.json: cannot read this file: No such file or directory"),
    ] {
      #expect(loader.load(directory: manifests).problems.map(\.description) == [problem])
    }
    let missing = loader.decodeModules(file: path + "/missing.json").problems
    #expect(
      missing.map(\.description) == [
        "\(path)/missing.json: cannot read this file: No such file or directory"
      ])
  }

  @Test func unusableApplicationStillChecksModules() throws {
    let directory = try ManifestDirectory()
    try directory.write("app.json", #"{"schemaVersion": 1, "name": "N"}"#)
    try directory.write("modules/a.json", moduleFile(#"{"name": "a", "type": "T.M", "leve": 1}"#))
    let set = loader.load(directory: directory.path)
    #expect(set.application == nil)
    #expect(
      set.problems.map(\.message) == [
        "missing required key 'scheme' (string)",
        "unknown key 'leve' (did you mean 'level'?)",
      ])
  }

  @Test func decodeModulesFromFile() throws {
    let directory = try ManifestDirectory()
    try directory.write("extra.json", moduleFile(#"{"name": "late", "type": "T.M"}"#))
    let set = loader.decodeModules(file: "\(directory.path)/extra.json")
    #expect(set.problems.isEmpty)
    #expect(set.modules.map(\.name) == ["late"])
    let missing = loader.decodeModules(file: "\(directory.path)/none.json")
    #expect(missing.problems.map(\.kind) == [.unreadable])
  }

  @Test func applicationPropertyList() throws {
    let directory = try ManifestDirectory()
    try directory.write(
      "app.plist",
      plist(
        """
        <dict>
          <key>schemaVersion</key><integer>1</integer>
          <key>name</key><string>Notebook</string>
          <key>scheme</key><string>notebook</string>
          <key>environment</key><string>test</string>
          <key>modules</key><array><string>list.plist</string></array>
        </dict>
        """))
    try directory.write(
      "list.plist",
      plist(
        """
        <dict>
          <key>schemaVersion</key><integer>1</integer>
          <key>modules</key>
          <array>
            <dict>
              <key>name</key><string>notes</string>
              <key>type</key><string>T.M</string>
              <key>priority</key><integer>5</integer>
              <key>async</key><true/>
              <key>timeout</key><real>1.5</real>
              <key>config</key><dict><key>limit</key><integer>3</integer></dict>
            </dict>
          </array>
        </dict>
        """))
    let set = loader.load(directory: directory.path)
    #expect(set.problems.isEmpty, "\(set.problems)")
    #expect(set.application?.environment == .test)
    let module = try #require(set.modules.first)
    #expect(module.priority == 5 && module.isAsync && module.startTimeout == 1.5)
    #expect(module.config == ["limit": 3])
    #expect(
      module.source == SourceLocation(file: "\(directory.path)/list.plist", keyPath: "modules[0]"))
  }
}

func plist(_ body: String) -> String {
  """
  <?xml version="1.0" encoding="UTF-8"?>
  <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
  <plist version="1.0">
  \(body)
  </plist>
  """
}

@Suite("Manifest: property lists")
struct PropertyListTests {
  @Test func problemsHaveKeyPathsButNoLines() {
    let set = ManifestLoader.decodeModules(
      Data(
        plist(
          """
          <dict>
            <key>schemaVersion</key><integer>1</integer>
            <key>modules</key>
            <array>
              <dict>
                <key>name</key><string>a</string>
                <key>type</key><string>T.M</string>
                <key>priorty</key><integer>1</integer>
                <key>enabled</key><string>yes</string>
              </dict>
            </array>
          </dict>
          """
        ).utf8), file: "m.plist")
    #expect(
      set.problems.map(\.description) == [
        "m.plist modules[0].priorty: unknown key 'priorty' (did you mean 'priority'?)",
        #"m.plist modules[0].enabled: expected boolean, found string "yes""#,
      ])
  }

  @Test func beeHiveModuleList() {
    let set = ManifestLoader.decodeModules(
      Data(
        plist(
          """
          <dict>
            <key>moduleClasses</key>
            <array>
              <dict>
                <key>moduleClass</key><string>HomeModule</string>
                <key>moduleLevel</key><integer>0</integer>
                <key>modulePriority</key><string>600</string>
              </dict>
              <dict>
                <key>moduleClass</key><string>ShopKit.CartModule</string>
                <key>moduleLevel</key><integer>1</integer>
              </dict>
              <dict>
                <key>moduleClass</key><string>Bad</string>
                <key>moduleLevel</key><integer>7</integer>
                <key>modulePriority</key><string>high</string>
              </dict>
            </array>
          </dict>
          """
        ).utf8), file: "BeeHive.plist")
    #expect(set.modules.map(\.name) == ["homemodule", "cartmodule", "bad"])
    #expect(set.modules.map(\.type) == ["HomeModule", "ShopKit.CartModule", "Bad"])
    #expect(set.modules.map(\.level) == [.basic, .normal, .normal])
    #expect(set.modules.map(\.priority) == [600, 0, 0])
    #expect(
      set.problems.map { "\($0.location.keyPath): \($0.message)" } == [
        "moduleClasses[2].moduleLevel: expected 0 (basic) or 1 (normal), found integer 7",
        #"moduleClasses[2].modulePriority: expected integer, found string "high""#,
      ])
  }

  @Test func invalidPropertyListsFailCleanly() {
    let broken = ManifestLoader.decodeModules(
      Data(plist("<dict><key>a</key></dict>").utf8), file: "m.plist")
    #expect(broken.problems.map(\.kind) == [.syntax])
    #expect(broken.problems.first?.message.hasPrefix("not a valid property list") == true)
    let deep = ManifestLoader.decodeModules(
      Data(
        plist(
          String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000)
        ).utf8), file: "m.plist")
    #expect(
      deep.problems.map(\.message) == ["arrays and objects nested deeper than 512 levels"])
    let dated = ManifestLoader.decodeModules(
      Data(plist("<dict><key>when</key><date>2020-01-01T00:00:00Z</date></dict>").utf8),
      file: "m.plist")
    #expect(dated.problems.first?.kind == .typeMismatch)
    #expect(dated.problems.first?.location.keyPath == "when")
  }

  @Test func formatFollowsTheExtension() {
    let xml = Data(
      plist("<dict><key>schemaVersion</key><integer>1</integer><key>modules</key><array/></dict>")
        .utf8)
    #expect(ManifestLoader.decodeModules(xml, file: "modules.list").problems.isEmpty)
    #expect(ManifestLoader.decodeModules(xml, file: "modules.plist").problems.isEmpty)
    let asJSON = ManifestLoader.decodeModules(xml, file: "modules.json")
    #expect(asJSON.problems.map(\.kind) == [.syntax])
    let binary = ManifestLoader.decodeModules(Data("bplist00".utf8), file: "modules.json")
    #expect(
      binary.problems.map(\.description) == ["modules.json:1:1: expected a value, found a letter"])
  }
}
