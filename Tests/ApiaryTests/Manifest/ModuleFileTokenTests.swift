import Foundation
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
      + " \"big\": 1.2345678901234568e29, \"esc\": \"a\\n\\u00e9\\ud83d\\ude00\"},\r\n"
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
    // Targets with every action key and every parameter type, after non-ASCII text.
    """
    {"schemaVersion": 1, "modules": [{"name": "t", "type": "P.T", "config": {"ü": "✓✓"},
      "targets": [
        {"name": "first", "type": "P.First", "actions": [
          {"name": "all", "remote": true, "summary": "Every kind ✓", "returns": "object",
           "timeout": 2.5, "parameters": [
             {"name": "s", "type": "string", "required": true},
             {"name": "i", "type": "int", "default": -3},
             {"name": "d", "type": "double", "default": 1.5e2},
             {"name": "b", "type": "bool", "default": false},
             {"name": "a", "type": "array", "default": [1, "x", null, {}]},
             {"name": "o", "type": "object", "default": {"k": {"é": [true]}}},
             {"name": "n", "type": "any", "default": null, "required": false}]},
          {"returns": "array", "name": "bare", "timeout": 7, "parameters": []},
          {"name": "r-1", "returns": "any"}, {"name": "s_2", "returns": "string"},
          {"name": "i", "returns": "int"}, {"name": "d", "returns": "double"},
          {"name": "b", "returns": "bool"}]},
        {"type": "P.Second", "name": "second"},
        {"name": "third", "type": "P.Third", "actions": []}]},
      {"name": "u", "type": "P.U", "targets": []}]}
    """,
    // A process-placed module with its command, restart policy and health check.
    """
    {"schemaVersion": 1, "modules": [
      {"name": "worker", "type": "W.Module", "placement": "process",
       "command": ["./worker", "--serve", "é"],
       "restart": {"policy": "on-failure", "maxRestarts": 0,
                   "backoff": {"initialSeconds": 0.25, "maxSeconds": 4}},
       "healthCheck": {"intervalSeconds": 1, "timeoutSeconds": 0.5}},
      {"command": ["x"], "name": "w2", "type": "W.M", "placement": "process",
       "restart": {"policy": "never"}, "healthCheck": {}},
      {"name": "w3", "type": "W.M", "placement": "process",
       "restart": {"backoff": {"initialSeconds": 40}, "policy": "on-failure"},
       "healthCheck": {"timeoutSeconds": 3}},
      {"name": "w4", "type": "W.M", "restart": {"policy": "on-failure", "backoff": {}}}]}
    """,
  ]

  /// The sample application's JSON module files, read from the repository.
  static let sampleFiles: [String] = {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Manifests/modules")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted().compactMap {
      try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
    }
  }()

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
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "targets": {}}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "targets": [{"name": "t"}]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "targets": [{"name": "9", "type": "X"}]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "targets": [{"name": "t", "type": "X", "action": []}]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "targets": [{"name": "t", "type": "X", "actions": [{"remote": true}]}]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "targets": [{"name": "t", "type": "X", "actions": [{"name": "x", "name": "y"}]}]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "targets": [{"name": "t", "type": "X", "actions": [{"name": "x", "returns": "void"}]}]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "targets": [{"name": "t", "type": "X", "actions": [{"name": "x", "timeout": -1}]}]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "targets": [{"name": "t", "type": "X", "actions": [{"name": "x", "remote": 1}]}]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "targets": [{"name": "t", "type": "X", "actions": [{"name": "x", "parameters": [{"name": "p"}]}]}]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "targets": [{"name": "t", "type": "X", "actions": [{"name": "x", "parameters": [{"name": "", "type": "int"}]}]}]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "targets": [{"name": "t", "type": "X", "actions": [{"name": "x", "parameters": [{"name": "p", "type": "int", "default": {"k": 1, "k": 2}}]}]}]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "command": ["x"]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "placement": "process", "command": []}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "placement": "process", "command": [""]}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "placement": "process", "command": "x"}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "restart": {"maxRestarts": 1}}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "restart": {"policy": "always"}}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "restart": {"policy": "never", "maxRestarts": -1}}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "restart": {"policy": "never", "backoff": {"initialSeconds": 2, "maxSeconds": 1}}}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "restart": {"policy": "never", "backoff": {"initial": 2}}}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "healthCheck": {"intervalSeconds": 0}}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "healthCheck": {"timeoutSeconds": 1, "timeoutSeconds": 2}}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "healthCheck": true}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "timeout": 0}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "level": "high"}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "priority": 1.5}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "priority": 3.0}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "timeout": 1e300}]}"#,
    #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T", "restart": {"policy": "never", "backoff": {"maxSeconds": 1000001}}}]}"#,
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

  static func fromTokens(
    _ text: String, limits: ManifestLimits = .default, repeated: RepeatedValues? = nil
  ) -> [ModuleManifest]? {
    var text = text
    return text.withUTF8 { bytes in
      JSONParser.decodeModuleFile(
        UnsafeRawBufferPointer(bytes), file: "dir/m.json", limits: limits, repeated: repeated)
    }
  }

  @Test("a valid file gives the tree's modules, positions included", arguments: valid)
  func sameModulesAsTheTree(text: String) throws {
    let tree = Self.fromTree(text)
    #expect(tree.problems.isEmpty)
    let modules = try #require(Self.fromTokens(text))
    #expect(modules == tree.modules)
    // Decoded again sharing the values repeated across files, as loading a directory does: the
    // second time, every repeated value is an earlier one.
    let repeated = RepeatedValues()
    for _ in 0..<2 { #expect(Self.fromTokens(text, repeated: repeated) == tree.modules) }
    #expect(modules.map(\.source) == tree.modules.map(\.source))
    #expect(
      modules.map { $0.services.map(\.source) } == tree.modules.map { $0.services.map(\.source) })
    #expect(modules.map(\.plugin?.source) == tree.modules.map(\.plugin?.source))
    let targets = modules.flatMap(\.targets)
    let treeTargets = tree.modules.flatMap(\.targets)
    #expect(targets.map(\.source) == treeTargets.map(\.source))
    #expect(
      targets.flatMap { $0.actions.map(\.source) }
        == treeTargets.flatMap { $0.actions.map(\.source) })
  }

  @Test("the sample's module files take the token path and give the tree's modules")
  func sampleFilesTakeTheTokenPath() throws {
    #expect(Self.sampleFiles.count == 3)
    for text in Self.sampleFiles {
      try sameModulesAsTheTree(text: text)
    }
    #expect(
      Self.sampleFiles.contains { text in
        Self.fromTree(text).modules.contains { !$0.targets.isEmpty }
      })
  }

  @Test("files with targets, commands, restart policies and health checks take the token path")
  func everyKeyTakesTheTokenPath() throws {
    let modules =
      try #require(Self.fromTokens(Self.valid[4]))
      + #require(Self.fromTokens(Self.valid[5]))
    #expect(modules.flatMap(\.targets).flatMap(\.actions).flatMap(\.parameters).count == 7)
    #expect(modules.compactMap(\.command).count == 2)
    #expect(modules.filter { $0.restart.policy == .onFailure }.count == 3)
    #expect(modules.compactMap(\.healthCheck).count == 3)
    #expect(modules.first { $0.name == "w3" }?.restart.maxBackoff == 40)
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
    // A value shared with an earlier file counts as any other.
    let repeated = RepeatedValues()
    #expect(Self.fromTokens(text, repeated: repeated) != nil)
    #expect(Self.fromTokens(text, limits: limits, repeated: repeated) == nil)
    #expect(Self.fromTree(text, limits: limits).problems.map(\.kind) == [.limitExceeded])
  }

  /// The deepest container of the targets file is a parameter default's `[true]`, inside 11
  /// others: a depth of 12 takes it, 11 does not, on both paths.
  @Test("the depth limit holds at the same level on both paths, down to parameter defaults")
  func depthLimit() throws {
    var limits = ManifestLimits.default
    limits.depth = 11
    let text = Self.valid[4]
    #expect(Self.fromTokens(text, limits: limits) == nil)
    #expect(Self.fromTree(text, limits: limits).problems.map(\.kind) == [.limitExceeded])
    limits.depth = 12
    let tree = Self.fromTree(text, limits: limits)
    #expect(tree.problems.isEmpty)
    #expect(try #require(Self.fromTokens(text, limits: limits)) == tree.modules)
  }

  /// Seeded random edits of every valid file and sample file (bytes deleted, repeated or
  /// replaced by JSON's own punctuation and words): whenever the tokens give modules, the tree
  /// gives the same modules, positions included, and no problem. A rule the tree enforces and
  /// the tokens miss shows up here as a file the tokens accept.
  @Test("edited files the tokens accept are accepted alike by the tree")
  func editedFilesAgree() {
    var random = SplitMix(seed: 0x0A91_A125)
    let pieces: [[UInt8]] = [
      "\"", ",", ":", "{", "}", "[", "]", "0", "-1", "2.5", "1e3", "true", "null", " ", "\\",
      "\"name\"", "\"type\"", "\"targets\"", "\"actions\"", "\"parameters\"", "\"default\"",
      "\"restart\"", "\"placement\"", "\"process\"", "\"command\"", "\"timeout\"", "\"é\"",
    ].map { Array($0.utf8) }
    var (accepted, disagreements) = (0, [String]())
    // Shared by every edited file, so values that differ by a byte meet in it.
    let repeated = RepeatedValues()
    for original in (Self.valid + Self.sampleFiles).map({ Array($0.utf8) }) {
      for _ in 0..<1000 {
        var bytes = original
        for _ in 0..<Int(random.next() % 3 + 1) {
          let at = Int(random.next() % UInt64(bytes.count))
          let length = min(Int(random.next() % 8), bytes.count - at)
          switch random.next() % 3 {
          case 0: bytes.removeSubrange(at..<at + length)
          case 1: bytes.insert(contentsOf: bytes[at..<at + length], at: at)
          default:
            bytes.replaceSubrange(at..<at + length, with: pieces[Int(random.next() % 27)])
          }
          if bytes.isEmpty { bytes = original }
        }
        let tokens = bytes.withUnsafeBytes {
          JSONParser.decodeModuleFile(
            $0, file: "dir/m.json", limits: .default, repeated: repeated)
        }
        guard let tokens else { continue }
        accepted += 1
        let tree = bytes.withUnsafeBytes { bytes in
          let (root, problems) = JSONParser.parse(bytes, file: "dir/m.json", limits: .default)
          var decoder = ManifestDecoder(file: "dir/m.json")
          let modules = root.map { decoder.moduleFile($0) } ?? []
          return (modules, problems + decoder.problems)
        }
        let same =
          tree.1.isEmpty && tokens == tree.0 && tokens.map(\.source) == tree.0.map(\.source)
          && tokens.flatMap(\.targets).map(\.source) == tree.0.flatMap(\.targets).map(\.source)
        if !same, disagreements.count < 3 {
          disagreements.append(String(decoding: bytes, as: UTF8.self))
        }
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements)")
    #expect(accepted > 300, "too few edited files took the token path to tell anything")
  }
}
