import ApiarySupport
import Testing

@testable import ApiaryProcess

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Cutting UTF-8 bytes short without cutting a character in two.
@Suite struct CharacterCutTests {
  /// A 4-byte scalar across the cut moves the cut to its start, wherever the cut falls in it;
  /// one that ends at the cut, or starts there, leaves the cut where it is.
  @Test func aFourByteScalarAcrossTheCutIsKeptWhole() {
    for before in 0...9 {
      let bytes = Array((String(repeating: "a", count: before) + "𝄞bbbbbbbb").utf8)
      let across = before < 8 && before + 4 > 8
      #expect(CharacterCut.index(8, in: bytes) == (across ? before : 8), "\(before)")
    }
  }

  /// Bytes that are not UTF-8 (continuation bytes with no start) are cut at most 3 early, and
  /// never before the first byte.
  @Test func bytesThatAreNotUTF8AreCutAtMostThreeEarly() {
    #expect(CharacterCut.index(8, in: [UInt8](repeating: 0x80, count: 20)) == 5)
    #expect(CharacterCut.index(2, in: [UInt8](repeating: 0x80, count: 20)) == 0)
  }
}
