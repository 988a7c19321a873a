import ApiarySupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads a descriptor on its own thread and hands each line (without its newline) to a
/// handler; a last line without a newline is handed over at end-of-file, then the descriptor is
/// closed. Bytes that are not UTF-8 are replaced, so any output is shown.
///
/// ```swift
/// LineReader.start(descriptor: errorPipe, threadName: "stderr") { print("[child] \($0)") }
/// ```
enum LineReader {
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
        pending.append(contentsOf: buffer[0..<count])
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          handle(String(decoding: pending[..<newline], as: UTF8.self))
          pending.removeSubrange(...newline)
        }
      }
      if !pending.isEmpty { handle(String(decoding: pending, as: UTF8.self)) }
      close(descriptor)
    }
  }
}
