import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryLifecycle

@Suite struct ConfigTests {
  let config = Config(
    owner: "notes",
    values: ["limit": 3, "ratio": 0.5, "name": "n", "on": true, "tags": ["a", "b"]])

  @Test func typedAccessorsReadValuesAndDefaults() throws {
    #expect(try config.int("limit") == 3)
    #expect(try config.double("limit") == 3)
    #expect(try config.double("ratio") == 0.5)
    #expect(try config.string("name") == "n")
    #expect(try config.bool("on"))
    #expect(try config.strings("tags") == ["a", "b"])
    #expect(try config.int("absent", default: 7) == 7)
  }

  @Test func errorsNameTheOwnerAndKey() {
    #expect(throws: ConfigError.missing(owner: "notes", key: "absent", expected: "string")) {
      try config.string("absent")
    }
    #expect(
      throws: ConfigError.typeMismatch(
        owner: "notes", key: "name", expected: "integer", found: "string")
    ) {
      try config.int("name")
    }
    #expect(
      "\(ConfigError.typeMismatch(owner: "notes", key: "name", expected: "integer", found: "string"))"
        == "config of 'notes': key 'name' expected integer, found string")
  }
}
