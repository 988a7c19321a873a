import ApiaryPluginGate
import Testing

@Suite struct VersionRangeTests {
  private func admits(_ range: String, _ versions: [String]) throws -> [Bool] {
    let parsed = try VersionRange(range)
    return try versions.map { parsed.contains(try SemanticVersion($0)) }
  }

  @Test func boundsMustAllHold() throws {
    #expect(
      try admits(">=1.2.0 <2.0.0", ["1.1.9", "1.2.0", "1.9.9", "2.0.0-beta", "2.0.0"])
        == [false, true, true, true, false])
    #expect(
      try admits(">1.0.0 <=1.4.0", ["1.0.0", "1.0.1", "1.4.0", "1.4.1"]) == [
        false, true, true, false,
      ])
  }

  @Test func exactVersions() throws {
    #expect(
      try admits("=1.2.3", ["1.2.3", "1.2.3+b", "1.2.4", "1.2.3-rc.1"]) == [
        true, true, false, false,
      ])
    #expect(try admits("1.2.3", ["1.2.3", "1.2.2"]) == [true, false])
  }

  @Test func caretAndTilde() throws {
    #expect(
      try admits("^1.2.0", ["1.2.0", "1.9.0", "2.0.0-alpha", "2.0.0", "1.1.0"])
        == [true, true, false, false, false])
    #expect(try admits("^0.2.3", ["0.2.3", "0.2.9", "0.3.0"]) == [true, true, false])
    #expect(try admits("^0.0.3", ["0.0.3", "0.0.4"]) == [true, false])
    #expect(
      try admits("~1.2.0", ["1.2.0", "1.2.9", "1.3.0-0", "1.3.0"]) == [true, true, false, false])
  }

  @Test func starAdmitsEverything() throws {
    #expect(try admits("*", ["0.0.0", "1.0.0-alpha", "99.0.0"]) == [true, true, true])
  }

  @Test func keepsTheTextItWasGiven() throws {
    #expect(try VersionRange(">=1.0.0   <2.0.0").description == ">=1.0.0 <2.0.0")
    #expect(try VersionRange(" \t>=1.0.0\t <2.0.0 ").description == ">=1.0.0 <2.0.0")
    #expect(
      throws: VersionSyntaxError(
        input: " \t ", reason: "empty; write '*' for any version", isRange: true)
    ) {
      try VersionRange(" \t ")
    }
  }

  @Test func parseErrorsNameTheComparator() {
    let cases: [(String, String)] = [
      ("", "version range '': empty; write '*' for any version"),
      (
        ">= 1.0.0",
        "version range '>= 1.0.0': comparator 1 '>=': operator '>=' has no version; write it without a space, like '>=1.2.0'"
      ),
      (
        ">=1.0.0 <2.0",
        "version range '>=1.0.0 <2.0': comparator 2 '<2.0': expected MAJOR.MINOR.PATCH (like 1.2.3), found 2 parts"
      ),
      (
        "* <2.0.0", "version range '* <2.0.0': comparator 1 '*': '*' cannot be combined with bounds"
      ),
      ("^x", "version range '^x': expected MAJOR.MINOR.PATCH (like 1.2.3), found 1 part"),
    ]
    for (text, message) in cases {
      do {
        _ = try VersionRange(text)
        Issue.record("'\(text)' parsed")
      } catch {
        #expect(error.description == message)
      }
    }
  }
}
