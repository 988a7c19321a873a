import Testing

@testable import ApiarySupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one funnel for the host's lines: the commands' errors and the runtime's alike.
@Suite struct StandardStreamsTests {
  /// Each line is escaped and ends with a newline, so text inside a line cannot start another;
  /// the whole text is one send.
  @Test func linesAreEscapedAndEachEndsWithANewline() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    // Close-on-exec: a child another test spawns must not hold the write end open.
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    defer { close(ends[0]) }
    let failure = StandardStreams.send(lines: ["one\ntwo", "three\u{1B}"], to: ends[1])
    close(ends[1])
    #expect(failure == nil)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 256)
    while case let count = read(ends[0], &buffer, buffer.count), count > 0 {
      bytes += buffer[..<count]
    }
    #expect(String(decoding: bytes, as: UTF8.self) == "one\\ntwo\nthree\\u001B\n")
  }
}
