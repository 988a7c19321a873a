import Testing

@testable import ApiaryPluginGate

@Suite struct ByteFileTests {
  let fixtures: Fixtures

  init() throws { fixtures = try Fixtures() }

  @Test func aSearchSkipsPathsItCannotReadWithoutAProblem() throws {
    #expect(ByteFile.ifReadable(fixtures.directory + "/missing.so") == nil)
    #expect(ByteFile.ifReadable(fixtures.directory) == nil)
    let path = try fixtures.write(Array("\u{7f}ELF and more".utf8), to: "lib.so")
    let file = try #require(ByteFile.ifReadable(path))
    #expect(file.path == path && file.size == 13)
    #expect(Array(try file.read(offset: 0, count: 4)) == [0x7f, 0x45, 0x4c, 0x46])
  }
}
