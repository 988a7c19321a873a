#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lines of standard input, read with `read(2)`, each without its `\n` or `\r\n`, as
/// `readLine()` gives them, but none longer than ``longestLine`` bytes: a longer one is dropped
/// as it is read, so input without newlines (`< /dev/zero`) cannot grow the host's memory.
///
/// ```swift
/// var input = InputLines()
/// while let line = input.next() { print(line) }  // .success(text) or .failure(tooLong)
/// ```
struct InputLines {
  static let longestLine = 1 << 20

  /// A line longer than ``InputLines/longestLine``, which was dropped: its number (from 1).
  struct TooLong: Error, CustomStringConvertible {
    let line: Int
    var description: String {
      "line \(line) is longer than \(InputLines.longestLine) bytes; ignored"
    }
  }

  /// Bytes read; those before `start` were handed over.
  private var buffer: [UInt8] = []
  private var start = 0
  /// Whether the line being read is already longer than ``longestLine`` (its bytes dropped).
  private var dropping = false
  private var ended = false
  private var number = 0

  /// The next line, `.failure` for a line that was too long, nil at the end of input (or on a
  /// read error, as `readLine()`).
  mutating func next() -> Result<String, TooLong>? {
    var searched = start
    while true {
      if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
        return take(upTo: newline, next: newline + 1)
      }
      if ended {
        guard start < buffer.count || dropping else { return nil }
        return take(upTo: buffer.count, next: buffer.count)
      }
      if buffer.count - start > Self.longestLine {
        dropping = true
        buffer.removeAll(keepingCapacity: true)
        start = 0
      } else if start > 0 {
        buffer.removeSubrange(..<start)
        start = 0
      }
      searched = buffer.count
      readMore()
    }
  }

  /// The line in `buffer[start..<end]` (without a `\r` before a newline), then `next` is the
  /// start of the following one.
  private mutating func take(upTo end: Int, next: Int) -> Result<String, TooLong> {
    number += 1
    defer {
      start = next
      dropping = false
    }
    if dropping || end - start > Self.longestLine { return .failure(TooLong(line: number)) }
    let last = end > start && next > end && buffer[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
    return .success(String(decoding: buffer[start..<last], as: UTF8.self))
  }

  /// Appends what one `read` gives; at end of input (or an error) sets `ended`.
  private mutating func readMore() {
    let count = buffer.count
    buffer += repeatElement(0, count: 1 << 16)
    var got = -1
    repeat {
      got = buffer.withUnsafeMutableBytes { bytes in
        read(STDIN_FILENO, bytes.baseAddress.map { $0 + count }, 1 << 16)
      }
    } while got < 0 && errno == EINTR
    buffer.removeSubrange((count + max(got, 0))...)
    if got <= 0 { ended = true }
  }
}
