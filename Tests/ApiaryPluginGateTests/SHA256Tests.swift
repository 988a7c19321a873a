import ApiaryPluginGate
import Foundation
import Testing

@Suite struct SHA256Tests {
  @Test func knownVectors() {
    #expect(
      SHA256.hex(of: [UInt8]())
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hex(of: Array("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      SHA256.hex(of: [UInt8](repeating: 0x61, count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func fileDigestEqualsBytesDigestAcrossChunks() throws {
    let fixtures = try Fixtures()
    // Longer than one read chunk (1 MiB) and not a multiple of the 64-byte block.
    let bytes = (0..<(1 << 20) + 1_000_003).map {
      UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13)
    }
    let path = try fixtures.write(bytes, to: "data.bin")
    #expect(try SHA256.hex(ofFile: path) == SHA256.hex(of: bytes))
  }

  @Test func missingFileIsAProblem() {
    #expect(throws: PluginProblem.self) { try SHA256.hex(ofFile: "/nonexistent/libX.so") }
  }
}
