import Foundation
import Testing

@testable import Apiary
@testable import ApiaryManifest

@Suite("Manifest: JSON parser")
struct JSONParserTests {
  func parse(_ text: String, file: String = "app.json") -> (
    root: ManifestNode?, problems: [ManifestProblem]
  ) {
    parseBytes(Array(text.utf8), file: file)
  }

  func parseBytes(_ bytes: [UInt8], file: String = "app.json") -> (
    root: ManifestNode?, problems: [ManifestProblem]
  ) {
    bytes.withUnsafeBytes { JSONParser.parse($0, file: file) }
  }

  func member(_ node: ManifestNode?, _ key: String) -> ManifestNode.Member? {
    guard case .object(let members) = node?.value else { return nil }
    return members.first { $0.key == key }
  }

  @Test func parsesValuesWithPositions() throws {
    let text = """
      {
        "name": "notes",
        "list": [1, -2.5, true, false, null],
        "nested": {"a": "é", "b": 3}
      }
      """
    let (root, problems) = parse(text)
    #expect(problems.isEmpty)
    let node = try #require(root)
    #expect(node.line == 1 && node.column == 1)
    #expect(
      node.jsonValue
        == ["name": "notes", "list": [1, -2.5, true, false, .null], "nested": ["a": "é", "b": 3]])
    let name = try #require(member(node, "name"))
    #expect((name.line, name.column) == (2, 3))
    #expect((name.value.line, name.value.column) == (2, 11))
    let list = try #require(member(node, "list"))
    guard case .array(let items) = list.value.value else {
      Issue.record("expected array")
      return
    }
    #expect(items.map(\.column) == [12, 15, 21, 27, 34])
    // Columns count characters, so the key after "é" is at 24, not 25.
    let nested = try #require(member(node, "nested"))
    let b = try #require(member(nested.value, "b"))
    #expect((b.line, b.column) == (4, 24))
  }

  @Test func syntaxErrorReportsLineColumnExpectedAndFound() {
    let text = """
      {
        "schemaVersion": 1,
        "name": "Notebook",
        "scheme": "notebook",
        "environment": "dev",
        "modules": ["modules"]
        "config": {}
      }
      """
    let (root, problems) = parse(text)
    #expect(root == nil)
    #expect(problems.count == 1)
    #expect(problems.first?.kind == .syntax)
    #expect(problems.first?.location.line == 7)
    #expect(problems.first?.location.column == 3)
    #expect(
      problems.first?.description
        == "app.json:7:3 modules: expected ',' or '}' after object member, found '\"'")
  }

  @Test(
    arguments: [
      ("", "1:1", "expected a value, found end of file"),
      ("   \n  ", "2:3", "expected a value, found end of file"),
      ("{\"a\": 1,}", "1:9", "expected a string key, found '}'"),
      ("[1, 2", "1:6", "expected ',' or ']' after array element, found end of file"),
      ("{\"a\" 1}", "1:6", "expected ':' after object key, found a digit"),
      ("{name: 1}", "1:2", "expected a string key, found a letter"),
      ("[True]", "1:2", "expected a value, found a letter"),
      (
        "{\"a\": 1, // note\n}", "1:10",
        "expected a string key, found '/' (JSON has no comments)"
      ),
      (
        "[01]", "1:3", "expected '.', 'e' or the end of the number after a leading 0, found a digit"
      ),
      ("[1.]", "1:4", "expected a digit after '.', found ']'"),
      ("[-]", "1:3", "expected a digit, found ']'"),
      ("[1e]", "1:4", "expected a digit in the exponent, found ']'"),
      ("\"abc", "1:5", "expected '\"' to close the string, found end of file"),
      ("\"ab\ncd\"", "1:4", "expected '\"' to close the string, found end of line"),
      (
        "\"\\x\"", "1:3",
        "expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after '\\', found a letter"
      ),
      ("\"\\u12G4\"", "1:6", "expected 4 hexadecimal digits after '\\u', found a letter"),
      ("\"\\uD800\"", "1:8", "expected '\\u' with the low half of a surrogate pair, found '\"'"),
      (
        "\"\\uDC00\"", "1:4",
        "expected a high surrogate (D800–DBFF) before a low one, found a letter"
      ),
      ("{} {}", "1:4", "expected end of file after the top-level value, found '{'"),
      ("[1e999]", "1:2", "number 1e999 is out of range"),
      ("[\u{7}]", "1:2", "expected a value, found a control character"),
    ])
  func syntaxErrors(text: String, position: String, message: String) {
    let (root, problems) = parse(text)
    #expect(root == nil)
    #expect(problems.count == 1)
    let problem = problems.first
    #expect(problem.map { "\($0.location.line ?? 0):\($0.location.column ?? 0)" } == position)
    #expect(problem?.message == message)
    #expect(problem?.kind == .syntax)
  }

  @Test func syntaxErrorCarriesKeyPath() {
    let text = #"{"modules": [{"name": "a"}, {"name": "b", "priority": }]}"#
    let (_, problems) = parse(text)
    #expect(problems.first?.location.keyPath == "modules[1].priority")
    #expect(problems.first?.message == "expected a value, found '}'")
  }

  @Test func columnsAfterNonASCIIStringsCountCharacters() {
    let (_, problems) = parse("{\"名前\": \"ü\" x}")
    #expect(problems.first?.location.column == 12)
  }

  @Test func duplicateKeysAreReportedWithBothPositions() {
    let text = """
      {"modules": [{"name": "a",
                    "name": "b"}]}
      """
    let (root, problems) = parse(text)
    #expect(root != nil)
    #expect(problems.count == 1)
    #expect(problems.first?.kind == .duplicateKey)
    #expect(problems.first?.location.keyPath == "modules[0].name")
    #expect(problems.first?.location.line == 2)
    #expect(
      problems.first?.message
        == "duplicate key 'name' (first at line 1, column 15); only one may be given")
  }

  @Test func decodesEscapesAndSurrogatePairs() {
    let (root, problems) = parse(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\uD83D\uDE00", "x\u0000y"]"#)
    #expect(problems.isEmpty)
    #expect(root?.jsonValue == ["a\"b\\c/d\u{8}\u{c}\n\r\t", "é😀", "x\u{0}y"])
  }

  @Test func numbers() {
    let (root, problems) = parse(
      "[0, -0, 12, -9223372036854775808, 9223372036854775807, 9.223372036854775808e18, 1.5e3, "
        + "-2E-2]")
    #expect(problems.isEmpty)
    #expect(
      root?.jsonValue
        == [
          0, 0, 12, .int(Int.min), .int(Int.max), .double(9_223_372_036_854_775_808), 1500.0,
          -0.02,
        ])
    // An integer past 64 bits is out of range, not rounded to a Double.
    for big in ["9223372036854775808", "-9223372036854775809"] {
      let (root, problems) = parse("[\(big)]")
      #expect(root == nil)
      #expect(
        problems.map(\.message) == [
          "integer \(big) is out of range: integers are from -9223372036854775808 to "
            + "9223372036854775807 (where an approximate value will do, write it with an exponent, "
            + "such as 1.5e30)"
        ])
    }
  }

  @Test func skipsByteOrderMark() {
    let (root, problems) = parseBytes([0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}".utf8))
    #expect(problems.isEmpty)
    #expect(root?.column == 1)
    #expect(root?.jsonValue == ["a": 1])
  }

  @Test func rejectsInvalidUTF8() {
    let inString = parseBytes(Array("[\"ab".utf8) + [0xC3, 0x28] + Array("\"]".utf8))
    #expect(inString.root == nil)
    #expect(inString.problems.first?.message == "invalid UTF-8 in string")
    let outside = parseBytes([UInt8(ascii: "["), 0xFF, UInt8(ascii: "]")])
    #expect(outside.problems.first?.message == "expected a value, found a non-ASCII character")
  }

  /// A file named in `modules` may be any file: problems never echo its bytes.
  @Test func syntaxErrorsNeverQuoteTheInput() {
    let secret = "root:x:0:0:secret-password-hash:/root:/bin/bash\n"
    let (root, problems) = parse(secret)
    #expect(root == nil)
    #expect(problems.map(\.description) == ["app.json:1:1: expected a value, found a letter"])
  }

  @Test func capsNestingDepth() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let (root, problems) = parse(deep)
    #expect(root == nil)
    #expect(problems.first?.message == "arrays and objects nested deeper than 512 levels")
    #expect(problems.first?.location.column == 513)
    let allowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    #expect(parse(allowed).problems.isEmpty)
    let objects =
      String(repeating: "{\"a\":", count: 600) + "1" + String(repeating: "}", count: 600)
    #expect(parse(objects).problems.first?.kind == .limitExceeded)
  }

  @Test func everyTruncationFailsCleanly() {
    let text = #"{"schemaVersion": 1, "modules": [{"name": "a\u00e9", "x": [1.5e3, true, null]}]}"#
    let bytes = Array(text.utf8)
    #expect(parseBytes(bytes).problems.isEmpty)
    for length in 0..<bytes.count {
      let (root, problems) = parseBytes(Array(bytes[..<length]))
      #expect(root == nil)
      #expect(problems.count == 1)
    }
  }

  @Test func randomBytesNeverCrash() {
    var generator = SplitMix(seed: 42)
    let alphabet = Array(#"{}[]",:-0123456789.eE truefalsnul\"#.utf8) + [0x0A, 0xC3, 0xFF]
    for _ in 0..<2_000 {
      let count = Int(generator.next() % 40)
      let bytes = (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
      let (root, problems) = parseBytes(bytes)
      #expect((root == nil) == problems.contains { $0.kind == .syntax })
    }
  }
}

/// A small deterministic generator, so random tests are reproducible.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
