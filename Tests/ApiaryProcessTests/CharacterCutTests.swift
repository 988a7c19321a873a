import ApiarySupport
import Dispatch
import Testing

@testable import ApiaryProcess

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Cutting UTF-8 bytes short without cutting a character in two (`FrameTests` has the quoted
/// frame header).
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

  /// A line longer than `LineReader.longestLine` is handed over in pieces cut between
  /// characters: a 4-byte scalar across the cut starts the next piece.
  @Test func aLongLineIsCutBeforeAFourByteScalarAcrossTheCut() throws {
    let fds = try testPipe()
    let lines = Locked<[String]>([])
    let ended = DispatchSemaphore(value: 0)
    LineReader.start(descriptor: fds[0], threadName: "apiary-test-lines") { line in
      lines.withLock { $0.append(line) }
      if line.hasSuffix("b") { ended.signal() }
    }
    let head = String(repeating: "a", count: LineReader.longestLine - 2)
    var bytes = Array((head + "𝄞b").utf8)
    #expect(write(fds[1], &bytes, bytes.count) == bytes.count)
    close(fds[1])
    #expect(ended.wait(timeout: .now() + 30) == .success)
    #expect(lines.withLock { $0 } == [head, "𝄞b"])
  }
}
