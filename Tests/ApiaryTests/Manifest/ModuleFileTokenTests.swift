import Testing

@testable import ApiaryManifest

/// Decoding JSON module files from the parser's tokens (`JSONParser.decodeModuleFile`) gives
/// exactly the modules the positioned tree gives, positions included, and leaves every file
/// with a problem (or a key it does not read) to the tree.
@Suite("Manifest: module files decoded from tokens")
struct ModuleFileTokenTests {
  static let valid: [String] = [
    // The shape of the lazy boot benchmark's files.
    """
    {
      "schemaVersion": 1,
      "modules": [
        {
          "name": "m7",
          "type": "ApiaryBench.ServiceModule",
          "level": "normal",
          "priority": 3,
          "dependencies": ["m1", "m4"],
          "async": true,
          "config": { "index": 7 },
          "services": [{ "protocol": "ApiaryBench.ManifestService",
             "implementation": "ApiaryBench.ManifestService", "name": "m7",
             "scope": "singleton" }],
          "activation": "lazy", "activationEvents": ["bench.tick"]
        }
      ]
    }
    """,
    #"{"schemaVersion": 1, "modules": []}"#,
    // Every key it reads, two modules, CRLF line ends, non-ASCII text before values.
    "{\"modules\": [{\"name\": \"a\", \"type\": \"P.A\", \"level\": \"basic\", \"priority\": -2,\r\n"
      + "  \"timeout\": 2.5, \"enabled\": false, \"optional\": true, \"async\": false,\r\n"
      + "  \"config\": {\"é\": \"ü ✓\", \"list\": [1, -0.5, 1e3, true, null, {}], \"o\": {\"k\": []},"
      + " \"big\": 123456789012345678901234567890, \"esc\": \"a\\n\\u00e9\\ud83d\\ude00\"},\r\n"
      + "  \"library\": \"libA.so\", \"version\": \"1.2.0\",\r\n"
      + "  \"sha256\": \"" + String(repeating: "AB", count: 32)
      + "\", \"placement\": \"process\",\r\n"
      + "  \"activation\": \"background\", \"activationEvents\": []},\r\n"
      + "  {\"type\": \"P.B\", \"name\": \"b-1\", \"timeout\": 3, \"dependencies\": [\"a\"],"
      + " \"services\": [{\"implementation\": \"I\", \"protocol\": \"P\", \"rank\": 2,"
      + " \"scope\": \"transient\"}, {\"protocol\": \"Q\", \"implementation\": \"J\"}]}],\r\n"
      + " \"schemaVersion\": 1}\r\n",
    // A byte order mark, and an escaped name and type.
    "\u{FEFF}{\"schemaVersion\": 1, \"modules\": [{\"name\": \"n\\u0061me\", \"type\": \"T\\/U\"}]}",
  ]

  static let leftToTheTree: [String] = [
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "priorty": 1}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "name": "b"}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "config": {"k": 1, "k": 2}}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "1a", "type": "T"}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a"}]}"#,
    #"{"schemaVersion": 2, "modules": []}"#,
    #"{"schemaVersion": 1.0, "modules": []}"#,
    #"{"modules": []}"#,
    #"{"schemaVersion": 1, "modules": [}"#,
    #"{"schemaVersion": 1, "modules": []} x"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "targets": []}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "timeout": 0}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "level": "high"}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "priority": 1.5}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "version": "1.0.0"}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "library": "l.so"}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "library": "l", "version": "1", "sha256": "ab"}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "dependencies": ["b", 2]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "services": [{"protocol": "P"}]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "async": "yes"}]}"#,
    #"{"schemaVersion": 1, "moduleClasses": [{"moduleClass": "A.B"}]}"#,
  ]

  /// The modules and problems of `text` decoded from the positioned tree, as before.
  static func fromTree(_ text: String, limits: ManifestLimits = .default) -> (
    modules: [ModuleManifest], problems: [ManifestProblem]
  ) {
    var text = text
    return text.withUTF8 { bytes in
      let (root, problems) = JSONParser.parse(
        UnsafeRawBufferPointer(bytes), file: "dir/m.json", limits: limits)
      var decoder = ManifestDecoder(file: "dir/m.json")
      let modules = root.map { decoder.moduleFile($0) } ?? []
      return (modules, problems + decoder.problems)
    }
  }

  static func fromTokens(_ text: String, limits: ManifestLimits = .default) -> [ModuleManifest]? {
    var text = text
    return text.withUTF8 { bytes in
      JSONParser.decodeModuleFile(UnsafeRawBufferPointer(bytes), file: "dir/m.json", limits: limits)
    }
  }

  @Test("a valid file gives the tree's modules, positions included", arguments: valid)
  func sameModulesAsTheTree(text: String) throws {
    let tree = Self.fromTree(text)
    #expect(tree.problems.isEmpty)
    let modules = try #require(Self.fromTokens(text))
    #expect(modules == tree.modules)
    #expect(modules.map(\.source) == tree.modules.map(\.source))
    #expect(
      modules.map { $0.services.map(\.source) } == tree.modules.map { $0.services.map(\.source) })
    #expect(modules.map(\.plugin?.source) == tree.modules.map(\.plugin?.source))
  }

  @Test(
    "a file with a problem, or a key the tokens leave, goes to the tree", arguments: leftToTheTree)
  func problemsAreLeftToTheTree(text: String) {
    #expect(Self.fromTokens(text) == nil)
    var bytes = text
    let loaded = bytes.withUTF8 { bytes in
      ManifestLoader.decodeModules(
        UnsafeRawBufferPointer(bytes), file: "dir/m.json", limits: .default)
    }
    let tree = Self.fromTree(text)
    #expect(loaded.modules == tree.modules)
    #expect(loaded.problems.count == tree.problems.count)
  }

  @Test("the value limit sends a file to the tree, which reports it")
  func valueLimit() {
    var limits = ManifestLimits.default
    limits.values = 5
    let text = Self.valid[0]
    #expect(Self.fromTokens(text, limits: limits) == nil)
    #expect(Self.fromTree(text, limits: limits).problems.map(\.kind) == [.limitExceeded])
  }
}
