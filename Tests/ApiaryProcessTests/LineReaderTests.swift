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

@Suite struct LineReaderTests {
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
