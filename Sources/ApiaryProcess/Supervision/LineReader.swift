import ApiarySupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads a descriptor on its own thread and hands each line (without its newline) to a
/// handler; a last line without a newline is handed over at end-of-file, then the descriptor is
/// closed. Bytes that are not UTF-8 are replaced, so any output is shown. A line longer than
/// ``longestLine`` bytes (a child writing without newlines) is handed over in pieces of at most
/// that many, cut between characters: memory stays bounded, and each byte is looked at once.
///
/// ```swift
/// LineReader.start(descriptor: errorPipe, threadName: "stderr") { print("[child] \($0)") }
/// ```
enum LineReader {
  /// The most bytes of one line handed over at once.
  static let longestLine = 1 << 16

  static func start(
    descriptor: Int32, threadName: String, line handle: @escaping @Sendable (String) -> Void
  ) {
    DetachedThread.start(name: threadName) {
      var pending: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        var start = 0
        for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
          pending += buffer[start..<index]
          handle(String(decoding: pending, as: UTF8.self))
          pending.removeAll(keepingCapacity: true)
          start = index + 1
        }
        pending += buffer[start..<count]
        while pending.count > longestLine {
          let end = CharacterCut.index(longestLine, in: pending)
          handle(String(decoding: pending[..<end], as: UTF8.self))
          pending.removeSubrange(..<end)
        }
      }
      if !pending.isEmpty { handle(String(decoding: pending, as: UTF8.self)) }
      close(descriptor)
    }
  }
}
