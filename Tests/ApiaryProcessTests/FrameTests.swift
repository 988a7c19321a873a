import ApiarySupport
import Foundation
import Testing

@testable import ApiaryProcess

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct FrameTests {
  /// Writes `text` to a pipe, closes it, and reads every frame back.
  private func frames(_ text: String) throws -> [String] { try frames(bytes: Array(text.utf8)) }

  /// Writes `bytes` to a pipe, closes it, and reads every frame back.
  private func frames(bytes: [UInt8]) throws -> [String] {
    let fds = try testPipe()
    var bytes = bytes
    _ = write(fds[1], &bytes, bytes.count)
    close(fds[1])
    defer { close(fds[0]) }
    var reader = FrameReader(descriptor: fds[0])
    var bodies: [String] = []
    while let body = try reader.next() { bodies.append(String(decoding: body, as: UTF8.self)) }
    return bodies
  }

  @Test func readsFramesBackToBackWithAnyHeaderCase() throws {
    let text =
      "Content-Length: 2\r\n\r\n{}content-length: 7\r\nContent-Type: x\r\n\r\n[1,2,3]"
      + "CONTENT-LENGTH:1\r\n\r\n7"
    #expect(try frames(text) == ["{}", "[1,2,3]", "7"])
  }

  @Test func writerFramesWhatReaderReads() throws {
    let fds = try testPipe()
    let writer = FrameWriter(descriptor: fds[1])
    try writer.send("{\"é\":1}")
    try writer.send("[]")
    close(fds[1])
    var reader = FrameReader(descriptor: fds[0])
    #expect(try reader.next().map { String(decoding: $0, as: UTF8.self) } == "{\"é\":1}")
    #expect(try reader.next() == Array("[]".utf8))
    #expect(try reader.next() == nil)
    close(fds[0])
  }

  /// A socket read and written through one descriptor is made non-blocking by its reader; a
  /// frame larger than the socket's buffer still goes out whole (the writer waits for room).
  @Test func largeFrameCrossesANonBlockingSocket() throws {
    var fds: [Int32] = [0, 0]
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)  // see `testPipe()`
    #expect(socketpair(AF_UNIX, type, 0, &fds) == 0)
    defer { close(fds[0]) }
    _ = FrameReader(descriptor: fds[0])
    #expect(fcntl(fds[0], F_GETFL) & O_NONBLOCK != 0)
    let body = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    let peer = fds[1]
    let received = Locked<[UInt8]?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {  // reads while the writer waits for room
      var other = FrameReader(descriptor: peer)
      let frame = try? other.next()
      received.withLock { $0 = frame }
      done.signal()
    }.start()
    try FrameWriter(descriptor: fds[0]).send(body)
    done.wait()
    #expect(received.withLock { $0 } == body)
    close(fds[1])
  }

  /// A frame that arrives in pieces is taken only once all of it is there; reading without
  /// waiting tells "nothing yet" from the end.
  @Test func bufferedFramesAreWholeFrames() throws {
    let fds = try testPipe()
    defer { close(fds[0]) }
    var reader = FrameReader(descriptor: fds[0])
    #expect(try reader.fill(waiting: false) == .nothing)
    for piece in ["Content-Len", "gth: 2\r\n\r\n{", "}Content-Length: 0\r\n\r\n"] {
      #expect(try reader.buffered() == nil)
      var bytes = Array(piece.utf8)
      _ = write(fds[1], &bytes, bytes.count)
      #expect(try reader.fill(waiting: false) == .bytes)
    }
    #expect(try reader.buffered() == Array("{}".utf8))
    #expect(try reader.buffered() == [])
    #expect(try reader.buffered() == nil)
    close(fds[1])
    #expect(try reader.fill(waiting: false) == .end)
  }

  @Test func malformedFramesAreTypedErrors() {
    #expect(throws: FrameError.missingLength) { try frames("X: 1\r\n\r\n{}") }
    #expect(throws: FrameError.truncated) { try frames("Content-Length: 10\r\n\r\n{}") }
    #expect(throws: FrameError.badHeader("Content-Length: x")) {
      try frames("Content-Length: x\r\n\r\n")
    }
    #expect(throws: FrameError.badHeader("Content-Length: -1")) {
      try frames("Content-Length: -1\r\n\r\n")
    }
    #expect(throws: FrameError.badHeader("Content-Length 2")) {
      try frames("Content-Length 2\r\n\r\n{}")
    }
    #expect(throws: FrameError.missingLength) { try frames("Content-Lengthy: 2\r\n\r\n{}") }
    #expect(throws: FrameError.tooLarge(1 << 40)) {
      try frames("Content-Length: \(1 << 40)\r\n\r\n")
    }
  }

  /// Input that ends before a whole header is malformed when a line of it cannot be a header
  /// (no `:`; at the end a partial line is final), quoting its start with control characters
  /// escaped; a header cut short is truncated.
  @Test func inputEndingInsideAHeaderSaysWhatCame() {
    #expect(throws: FrameError.badHeader("hello")) { try frames("hello\n") }
    #expect(throws: FrameError.badHeader("hello")) { try frames("hello") }
    #expect(throws: FrameError.badHeader("X-Y")) { try frames("Content-Length: 2\r\nX-Y\r\n") }
    #expect(throws: FrameError.badHeader("\\u001B[2Jhi")) { try frames("\u{1B}[2Jhi\r\n") }
    let long = String(repeating: "a", count: 100)
    #expect(throws: FrameError.badHeader(String(repeating: "a", count: 40) + "…")) {
      try frames(long)
    }
    #expect(throws: FrameError.badHeader(String(repeating: "a", count: 39) + "…")) {
      try frames(String(repeating: "a", count: 39) + "é" + long)
    }
    #expect(throws: FrameError.badHeader(String(repeating: "a", count: 38) + "…")) {
      try frames(String(repeating: "a", count: 38) + "𝄞" + long)
    }
    #expect(throws: FrameError.truncated) { try frames("Content-Length: 2\r\n") }
    #expect(throws: FrameError.truncated) { try frames("Content-Length: 1") }
    #expect(throws: FrameError.truncated) { try frames("\r\n") }
    #expect(
      FrameError.badHeader("hello").description == "malformed frame header: hello")
  }

  /// A header line is checked as soon as its line ending arrives, before the header's end and
  /// without the input ending: a child's stray log line (`print` in its handshake) broke the
  /// frame only when its output ended, and the host waited for the module's timeout instead.
  @Test func aLineThatIsNoHeaderBreaksTheFrameAsSoonAsItArrives() throws {
    let stray = try FedReader()
    #expect(try stray.arrives("Content-Length: 2\r\nloading index") == nil)  // no line end yet
    #expect(throws: FrameError.badHeader("loading index from disk...")) {
      try stray.arrives(" from disk...\n")
    }
    for line in ["loading index: 50%", ": no name", "Content-Length: x", "\u{1B}[2J: x"] {
      let fresh = try FedReader()
      #expect(throws: FrameError.self, "\(line)") { try fresh.arrives(line + "\r\n") }
    }
    let long = try FedReader()
    #expect(throws: FrameError.badHeader("a header over 8 KiB")) {
      try long.arrives("X-Long: " + String(repeating: "a", count: 9000) + "\r\n")
    }
    // A header over 8 KiB whose end came with it.
    let whole = try FedReader()
    #expect(throws: FrameError.badHeader("a header over 8 KiB")) {
      try whole.arrives(
        String(repeating: "X: 1\r\n", count: 2000) + "Content-Length: 2\r\n\r\n{}")
    }
    let fine = try FedReader()
    #expect(try fine.arrives("X-Seen: yes\r\n") == nil)
    #expect(try fine.arrives("Content-Length: 2\r\n\r\n{}") == Array("{}".utf8))
  }

  /// A header of bytes that are not UTF-8 is quoted as replacement characters, cut at most 3
  /// bytes short of 40: it was quoted as "…" alone, the cut backing off over every byte.
  @Test func aHeaderThatIsNotUTF8IsQuotedAsReplacementCharacters() {
    #expect(throws: FrameError.badHeader(String(repeating: "\u{FFFD}", count: 37) + "…")) {
      try frames(bytes: [UInt8](repeating: 0x80, count: 100))
    }
  }
}

/// A frame reader on a pipe of its own, fed by the test.
private final class FedReader {
  let fds: [Int32]
  var reader: FrameReader

  init() throws {
    fds = try testPipe()
    reader = FrameReader(descriptor: fds[0])
  }

  deinit { _ = fds.map(close) }

  /// Writes `text` (at most the 64 KiB a pipe holds), reads it, and returns the frame it
  /// completed, if any.
  func arrives(_ text: String) throws -> [UInt8]? {
    let bytes = Array(text.utf8)
    #expect(write(fds[1], bytes, bytes.count) == bytes.count)
    _ = try reader.fill(waiting: false)
    return try reader.buffered()
  }
}
