import Foundation
import Testing

@testable import Apiary
@testable import ApiaryManifest

/// A binary property list of `objects` (each an encoded object), rooted at `root`, with 2-byte
/// offsets and 1-byte references.
func binaryPropertyList(_ objects: [[UInt8]], root: Int = 0) -> Data {
  var bytes = Array("bplist00".utf8)
  var offsets: [Int] = []
  for object in objects {
    offsets.append(bytes.count)
    bytes += object
  }
  let table = bytes.count
  for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
  func eight(_ value: Int) -> [UInt8] {
    (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) }
  }
  bytes += [0, 0, 0, 0, 0, 0, 2, 1] + eight(objects.count) + eight(root) + eight(table)
  return Data(bytes)
}

/// `{"schemaVersion": 1, "modules": []}` as binary property-list objects 0 to 4.
let emptyModuleFile: [[UInt8]] = [
  [0xD2, 1, 2, 3, 4], [0x5D] + Array("schemaVersion".utf8), [0x57] + Array("modules".utf8),
  [0x10, 1], [0xA0],
]

@Suite("Manifest: hostile input")
struct HostileManifestTests {
  @Test func binaryPropertyListIsReadWithoutFoundation() {
    let set = ManifestLoader.decodeModules(
      binaryPropertyList(emptyModuleFile), file: "m.plist")
    #expect(set.problems.isEmpty, "\(set.problems)")
  }

  /// The 48-byte binary plist holding a set crashed every command inside Foundation.
  @Test func unusedPropertyListKindsAreProblems() {
    let set = binaryPropertyList([[0xC1, 1], [0x10, 1]])
    #expect(
      ManifestLoader.decodeModules(set, file: "m.plist").problems.map(\.description) == [
        "m.plist: expected string, number, boolean, array or dictionary, found set",
        "m.plist: expected object, found null",
      ])
    for (marker, name) in [(0x33, "date"), (0x41, "data"), (0x80, "UID"), (0xB0, "ordered set")] {
      var object: [UInt8] = [UInt8(marker)] + [UInt8](repeating: 0, count: 8)
      if marker == 0xB0 { object = [0xB0] }
      let data = binaryPropertyList([[0xD1, 1, 2], [0x51, UInt8(ascii: "x")], object])
      let problems = ManifestLoader.decodeModules(data, file: "m.plist").problems
      #expect(problems.first?.message.hasSuffix("found \(name)") == true, "\(problems)")
      #expect(problems.first?.location.keyPath == "x")
    }
  }

  /// Each array references the one before eight times: 40 levels stand for 8^39 values.
  @Test func sharedReferencesCountEveryTimeTheyAreUsed() {
    var objects: [[UInt8]] = [[0x51, UInt8(ascii: "x")]]
    for level in 1..<40 { objects.append([0xA8] + [UInt8](repeating: UInt8(level - 1), count: 8)) }
    let problems = ManifestLoader.decodeModules(
      binaryPropertyList(objects, root: 39), file: "bomb.plist"
    ).problems
    #expect(problems.map(\.kind) == [.limitExceeded])
    #expect(problems.first?.message.hasPrefix("more than 1000000 values") == true)
    let small = ManifestLimits(fileSize: 1 << 20, depth: 512, values: 100)
    let limited = ManifestLoader.decodeModules(
      binaryPropertyList(objects, root: 39), file: "bomb.plist", limits: small)
    #expect(limited.problems.first?.message.hasPrefix("more than 100 values") == true)
  }

  @Test func containersThatContainThemselvesAreRefused() {
    let problems = ManifestLoader.decodeModules(
      binaryPropertyList([[0xA1, 0]]), file: "cycle.plist"
    ).problems
    #expect(
      problems.map(\.message) == [
        "not a valid property list: an array or dictionary contains itself"
      ])
  }

  @Test func brokenBinaryPropertyListsFailCleanly() {
    let valid = binaryPropertyList(emptyModuleFile)
    // Every truncation, and every single-byte change, is a problem or a value, never a crash.
    for length in 0..<valid.count {
      _ = ManifestLoader.decodeModules(valid.prefix(length), file: "m.plist")
    }
    for position in 0..<valid.count {
      for value: UInt8 in [0x00, 0x0F, 0x7F, 0xAF, 0xDF, 0xFF] {
        var changed = valid
        changed[position] = value
        _ = ManifestLoader.decodeModules(changed, file: "m.plist")
      }
    }
    let empty = ManifestLoader.decodeModules(Data("bplist00".utf8), file: "m.plist")
    #expect(empty.problems.map(\.kind) == [.syntax])
  }

  /// A UTF-16 string's length is counted in units of two bytes: a length near `Int.max / 2`
  /// overflowed when doubled, as a key and as a value (found by `FuzzManifestPlist` in CI).
  @Test func aStringLengthThatOverflowsWhenDoubledIsAProblem() {
    let huge: [UInt8] = [0x6F, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]
    for objects in [[[0xD1, 1, 2], huge, [0x10, 1]], [[0xD1, 1, 2], [0x51, 0x78], huge]] {
      let problems = ManifestLoader.decodeModules(binaryPropertyList(objects), file: "m.plist")
        .problems
      #expect(
        problems.map(\.message) == [
          "not a valid property list: a string runs past the end of the objects"
        ])
    }
  }

  @Test func fileSizeIsBounded() {
    let data = Data(#"{"schemaVersion": 1, "modules": []}"#.utf8)
    let small = ManifestLimits(fileSize: 10, depth: 512, values: 100)
    let problems = ManifestLoader.decodeModules(data, file: "m.json", limits: small).problems
    #expect(problems.map(\.kind) == [.limitExceeded])
    #expect(problems.first?.message.hasPrefix("file is 35 bytes, more than 10;") == true)
    let values = ManifestLimits(fileSize: 100, depth: 512, values: 2)
    #expect(
      ManifestLoader.decodeModules(data, file: "m.json", limits: values).problems.map(\.kind)
        == [.limitExceeded])
  }

  @Test func keysDifferingOnlyInUnicodeNormalisationAreReported() {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    let json = ManifestLoader.decodeModules(
      Data(
        #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T.M", "config": {"\#(composed)": 1, "\#(decomposed)": 2}}]}"#
          .utf8), file: "m.json")
    #expect(json.problems.map(\.kind) == [.duplicateKey])
    #expect(json.problems.first?.location.keyPath == "modules[0].config.\(decomposed)")
    #expect(json.problems.first?.message.contains("only in Unicode normalisation") == true)
    let xml = ManifestLoader.decodeModules(
      Data(
        plist(
          "<dict><key>\(composed)</key><integer>1</integer><key>\(decomposed)</key><true/></dict>"
        ).utf8), file: "m.plist")
    #expect(xml.problems.first?.kind == .duplicateKey)
    #expect(xml.problems.first?.message.contains("only in Unicode normalisation") == true)
  }

  @Test func xmlPropertyListsAreStrict() {
    func problems(_ body: String) -> [String] {
      ManifestLoader.decodeModules(Data(plist(body).utf8), file: "m.plist").problems.map(
        \.message)
    }
    #expect(
      problems("<dict><key>a</key><secret/></dict>") == [
        "not a valid property list: expected a property-list element (<plist>, <dict>, <array>, "
          + "<key>, <string>, <integer>, <real>, <true>, <false>, <date>, <data>)"
      ])
    #expect(
      problems("<dict><key>a</key><integer>99999999999999999999</integer></dict>") == [
        "not a valid property list: expected an integer in <integer>"
      ])
    let misspelt = ManifestLoader.decodeModules(
      Data("<plist>\n<dict>\n  <key>a</key><true/>\n  <key>é</key><strin>b</string>\n".utf8),
      file: "m.plist")
    #expect(
      misspelt.problems.map(\.description) == [
        "m.plist:4:21 é: not a valid property list: expected a property-list element (<plist>, "
          + "<dict>, <array>, <key>, <string>, <integer>, <real>, <true>, <false>, <date>, <data>)"
      ], "a syntax error has the line and column (in scalars) where reading stopped")
    let entities = """
      <?xml version="1.0"?>
      <!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa">]>
      <plist><string>&a;</string></plist>
      """
    #expect(
      ManifestLoader.decodeModules(Data(entities.utf8), file: "m.plist").problems.map(\.message)
        == ["not a valid property list: <!DOCTYPE> with declarations is not supported in manifests"]
    )
    let text = ManifestLoader.decodeModules(
      Data(
        plist(
          "<dict><key>schemaVersion</key><integer> 1 </integer><key>modules</key><array>"
            + "<dict><key>name</key><string>a&amp;<![CDATA[<b>]]>&#x41;</string></dict>"
            + "</array></dict>"
        ).utf8), file: "m.plist")
    #expect(text.problems.first?.message.contains("found string \"a&<b>A\"") == true)
  }

  /// Leading zeros do not count against the length of a character reference; a reference with
  /// no `;` nearby is still unterminated.
  @Test func characterReferencesMayHaveLeadingZeros() {
    func string(_ text: String) -> [String] {
      let data = Data(plist("<dict><key>\(text)</key><true/></dict>").utf8)
      return ManifestLoader.decodeModules(data, file: "m.plist").problems.map(\.message)
    }
    let zeros = String(repeating: "0", count: 40)
    #expect(string("&#0000000000065;") == string("A"))
    #expect(string("&#x\(zeros)41;") == string("A"))
    #expect(string("&#\(zeros)1114111;") == string("\u{10FFFF}"))
    for reference in ["&#\(zeros)65", "&#\(zeros)1234567890123;", "&#x\(zeros)123456789;"] {
      #expect(string(reference) == ["not a valid property list: unterminated entity"])
    }
    #expect(
      string("&#\(zeros);") == [
        "not a valid property list: character reference &#0; names U+0000 (NUL), which XML does "
          + "not allow in text"
      ])
    #expect(
      string("&#\(zeros)1114112;") == [
        "not a valid property list: character reference &#1114112; names no character (the last "
          + "is U+10FFFF)"
      ])
  }

  /// An entry the decoder leaves out (a parameter of a bad type, a dependency that is not a
  /// string) does not shift the index later problems name.
  @Test func problemsAfterALeftOutEntryNameTheirIndexInTheFile() {
    let text = """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "T.M", "dependencies": [1, "ghost", "b"], "targets": [
          {"name": "t", "type": "T.T", "actions": [{"name": "go", "parameters": [
            {"name": "p", "type": "nope"}, {"name": "q", "type": "int", "default": "x"}]}]}]},
        {"name": "b", "type": "T.M", "dependencies": ["a"]}
      ]}
      """
    let set = decodeModules(text, file: "m.json")
    let problems = ManifestLoader.validate(
      application: nil, modules: set.modules, catalog: TypeCatalog())
    let keyPaths = problems.filter { $0.kind != .typeNotFound }.map(\.location.keyPath)
    #expect(
      keyPaths == [
        "modules[0].dependencies[1]", "modules[0].dependencies[2]",
        "modules[0].targets[0].actions[0].parameters[1].default",
      ], "\(problems)")
  }

  /// What a manifest may get wrong without harm still gets said, briefly: a dependency listed
  /// twice, and an unknown key of a megabyte (echoed whole before: four megabytes of output),
  /// clipped.
  @Test func harmlessMistakesAreReportedBriefly() {
    let key = String(repeating: "k", count: 1 << 20)
    let set = decodeModules(
      """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "T.M", "dependencies": ["b", "b"]},
        {"name": "b", "type": "T.M", "\(key)": 1}
      ]}
      """, file: "m.json")
    let problems =
      set.problems
      + ManifestLoader.validate(application: nil, modules: set.modules, catalog: TypeCatalog())
      .filter { $0.kind != .typeNotFound }
    let text = problems.map(\.description)
    #expect(
      text.contains {
        $0.hasSuffix(
          "modules[0].dependencies[1]: module 'a' lists dependency 'b' again; first at "
            + "dependencies[0]")
      }, "\(text)")
    let unknown = text.first { $0.contains("unknown key") } ?? ""
    #expect(
      unknown.contains("'" + String(repeating: "k", count: 64) + "…'"), "\(unknown.prefix(300))")
    #expect(unknown.count < 1_000)
  }

  /// The C library reads a path only up to a NUL, so a path holding one would name another
  /// file: it is a problem where it is written, in the fast decoder's path as in the tree's.
  @Test func aPathWithANULCharacterIsAProblem() {
    let application = ManifestLoader.decodeApplication(
      Data(#"{"schemaVersion": 1, "name": "A", "modules": ["m.json\u0000x", "n.json"]}"#.utf8),
      file: "app.json")
    #expect(application.modulePaths.map(\.path) == ["n.json"])
    #expect(
      application.problems.map(\.description).contains(
        #"app.json:1:47 modules[0]: expected a path, found one that contains a NUL character "#
          + #"(\u0000), which would cut it short: string "m.json\#u{0}x""#),
      "\(application.problems)")
    let modules = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "T.M", "#
        + #""library": "libA.so\u0000junk", "version": "1.0.0"}]}"#, file: "m.json")
    #expect(modules.modules.first?.plugin == nil)
    #expect(
      modules.problems.map(\.location.keyPath) == ["modules[0].library"], "\(modules.problems)")
    // A process's arguments too; and the empty program is named at its own index.
    let process = decodeModules(
      """
      {"schemaVersion": 1, "modules": [
        {"name": "a", "type": "T.M", "placement": "process", "command": ["p", "a\\u0000b"]},
        {"name": "b", "type": "T.M", "placement": "process", "command": [1, ""]}
      ]}
      """, file: "m.json")
    #expect(process.modules.map { $0.command == nil } == [true, true])
    #expect(
      process.problems.map(\.location.keyPath) == [
        "modules[0].command[1]", "modules[1].command[0]", "modules[1].command[1]",
      ], "\(process.problems)")
  }

  /// A path from elsewhere (a `:load` line) is refused whole, not opened up to its NUL.
  @Test func aFileWhosePathHoldsANULIsNotOpened() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "apiary-nul-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("m.json").path
    try Data(#"{"schemaVersion": 1, "modules": []}"#.utf8).write(to: URL(fileURLWithPath: file))
    #expect(throws: ManifestProblem.self) {
      _ = try ManifestLoader.contents(of: file + "\u{0}x", limits: .default)
    }
    #expect((try? ManifestLoader.contents(of: file, limits: .default)) != nil)
  }
}
