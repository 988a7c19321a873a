import ApiaryPluginGate
import Testing

@Suite struct SemanticVersionTests {
  @Test func parsesAllParts() throws {
    let version = try SemanticVersion("1.2.3-beta.11+build.5")
    #expect(version.major == 1 && version.minor == 2 && version.patch == 3)
    #expect(version.preRelease == ["beta", "11"])
    #expect(version.build == ["build", "5"])
    #expect(version.description == "1.2.3-beta.11+build.5")
  }

  @Test func precedenceFollowsTheSpecification() throws {
    // SemVer 2.0.0, section 11, example list.
    let ordered = try [
      "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
      "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "2.0.0",
    ].map(SemanticVersion.init)
    for (lower, higher) in zip(ordered, ordered.dropFirst()) {
      #expect(lower < higher, "\(lower) < \(higher)")
      #expect(!(higher < lower))
    }
    #expect(ordered.shuffled().sorted() == ordered)
  }

  @Test func buildMetadataIsIgnoredInPrecedence() throws {
    #expect(try SemanticVersion("1.0.0+a") == SemanticVersion("1.0.0+b"))
    #expect(Set([try SemanticVersion("1.0.0+a"), try SemanticVersion("1.0.0")]).count == 1)
  }

  @Test func parseErrorsSayWhatIsWrong() {
    let cases: [(String, String)] = [
      ("1.2", "version '1.2': expected MAJOR.MINOR.PATCH (like 1.2.3), found 2 parts"),
      ("1.02.0", "version '1.02.0': minor version '02' has a leading zero"),
      ("1.x.0", "version '1.x.0': minor version 'x' is not a number"),
      ("1.0.0-", "version '1.0.0-': pre-release has an empty identifier"),
      ("1.0.0-01", "version '1.0.0-01': numeric pre-release '01' has a leading zero"),
      ("1.0.0-a_b", "version '1.0.0-a_b': pre-release 'a_b' may hold only [0-9A-Za-z-]"),
      ("1.0.0+", "version '1.0.0+': build metadata has an empty identifier"),
      ("v1.0.0", "version 'v1.0.0': major version 'v1' is not a number"),
      (
        "99999999999999999999.0.0",
        "version '99999999999999999999.0.0': major version '99999999999999999999' is too large"
      ),
    ]
    for (text, message) in cases {
      #expect(throws: VersionSyntaxError.self) { try SemanticVersion(text) }
      do {
        _ = try SemanticVersion(text)
      } catch {
        #expect(error.description == message)
      }
    }
  }
}
