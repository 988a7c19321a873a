import ApiarySupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads LSP-style frames from a file descriptor: header lines `Name: value` ended by `\r\n`,
/// an empty line, then exactly `Content-Length` bytes of body.
///
/// Each header line is checked as soon as its line ending arrives, so a peer that prints a line
/// that is not a header (a log line on the wire) is found at once, not when a whole header
/// that never comes would have arrived.
///
/// ``next()`` blocks until a whole frame has arrived. A reader that must not block (an
/// ``RPCConnection`` spinning on its input) takes the frames already read with ``buffered()``
/// and reads more with ``fill(waiting:)``.
///
/// ```swift
/// var reader = FrameReader(descriptor: pipe.read)
/// while let body = try reader.next() { handle(body) }
/// ```
package struct FrameReader {
  /// The largest body accepted; a peer announcing more is broken or hostile.
  package static let maximumBodySize = 64 << 20
  /// The longest header accepted.
  static let maximumHeaderSize = 8192

  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private var start = 0
  /// How many bytes from `start` are whole header lines already checked, while the header's
  /// end has not arrived.
  private var checked = 0
  /// What one `read` fills, allocated once.
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)
  /// Whether `read` returns at once when nothing has arrived (`O_NONBLOCK`), so a reader that
  /// must not wait reads without asking `poll` first: one system call per look instead of two.
  private let nonblocking: Bool

  /// A reader of `descriptor`. A pipe or socket is switched to `O_NONBLOCK` (its other users
  /// are the peer's end, which the flag does not touch); anything else (a terminal shared with
  /// a shell, a file) is left as it is.
  package init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(1 << 16)
    nonblocking = Self.makeNonblocking(descriptor)
  }

  /// The next frame's body, waiting for it; nil at end of input between frames.
  package mutating func next() throws(FrameError) -> [UInt8]? {
    while true {
      if let body = try buffered() { return body }
      if try fill(waiting: true) == .end { return nil }
    }
  }

  /// The next frame's body if all of it has been read, else nil (nothing is consumed).
  /// Throws as soon as a header line that has arrived whole is not a header, or the header is
  /// longer than ``maximumHeaderSize``.
  package mutating func buffered() throws(FrameError) -> [UInt8]? {
    guard let end = headerEnd() else {
      try checkArrivedLines()
      return nil
    }
    guard end - start <= Self.maximumHeaderSize else { throw Self.overlong }
    var length: Int?
    // Bytes, not strings: this runs once per message on the round trip's critical path.
    var lineStart = start
    while lineStart < end {
      var lineEnd = lineStart
      while lineEnd < end, buffer[lineEnd] != 10 { lineEnd += 1 }  // "\n"
      let next = lineEnd + 1
      if lineEnd > lineStart, buffer[lineEnd - 1] == 13 { lineEnd -= 1 }  // "\r"
      if let parsed = try contentLength(lineStart..<lineEnd) { length = parsed }
      lineStart = next
    }
    guard let length else { throw .missingLength }
    let bodyStart = end + 4
    guard buffer.count - bodyStart >= length else { return nil }
    start = bodyStart + length
    checked = 0
    return Array(buffer[bodyStart..<start])
  }

  /// What a header longer than ``maximumHeaderSize`` is.
  private static let overlong = FrameError.badHeader("a header over 8 KiB")

  /// Checks the header lines that arrived whole since the last look (the header's end has
  /// not arrived), and the header's length so far.
  private mutating func checkArrivedLines() throws(FrameError) {
    var lineStart = start + checked
    while let newline = buffer[lineStart...].firstIndex(of: 10) {  // "\n"
      var lineEnd = newline
      if lineEnd > lineStart, buffer[lineEnd - 1] == 13 { lineEnd -= 1 }  // "\r"
      _ = try contentLength(lineStart..<lineEnd)
      lineStart = newline + 1
    }
    checked = lineStart - start
    guard buffer.count - start <= Self.maximumHeaderSize else { throw Self.overlong }
  }

  /// What one ``fill(waiting:)`` found.
  package enum Fill: Sendable, Equatable {
    /// Bytes were read.
    case bytes
    /// None have arrived (only without waiting).
    case nothing
    /// The input ended between frames.
    case end
  }

  /// Reads what has arrived, first waiting for it when `waiting`. Throws
  /// ``FrameError/truncated`` when the input ends inside a frame.
  package mutating func fill(waiting: Bool) throws(FrameError) -> Fill {
    if !nonblocking {
      guard try Self.readable(descriptor, waiting: waiting) else { return .nothing }
    }
    if start > 0 {
      buffer.removeFirst(start)
      start = 0
    }
    while true {
      let count = chunk.withUnsafeMutableBytes { bytes in
        guard let base = bytes.baseAddress else { return 0 }
        return read(descriptor, base, bytes.count)
      }
      if count < 0, errno == EINTR { continue }
      if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
        guard waiting else { return .nothing }
        _ = try Self.readable(descriptor, waiting: true)
        continue
      }
      if count < 0 { throw .readFailed(errno: errno) }
      if count == 0 {
        if start < buffer.count { throw endedInsideFrame() }
        return .end
      }
      buffer.append(contentsOf: chunk[..<count])
      return .bytes
    }
  }

  /// Why the input ended inside a frame: before a whole header, a line that cannot be a header
  /// line (see ``checkName(_:)``; at the end even a partial line is final) is malformed;
  /// anything else is truncated.
  private func endedInsideFrame() -> FrameError {
    guard headerEnd() == nil else { return .truncated }
    var lineStart = start
    while lineStart < buffer.count {
      var lineEnd = lineStart
      while lineEnd < buffer.count, buffer[lineEnd] != 10 { lineEnd += 1 }  // "\n"
      let next = lineEnd + 1
      if lineEnd > lineStart, buffer[lineEnd - 1] == 13 { lineEnd -= 1 }  // "\r"
      do {
        _ = try checkName(lineStart..<lineEnd)
      } catch {
        return error
      }
      lineStart = next
    }
    return .truncated
  }

  /// Where the `:` after the name of the header line at `line` is; throws when the line is not
  /// `Name: value` with a name of visible ASCII characters (no spaces), as a log line is not.
  /// Nil for an empty line.
  private func checkName(_ line: Range<Int>) throws(FrameError) -> Int? {
    guard !line.isEmpty else { return nil }
    guard let colon = buffer[line].firstIndex(of: 58),  // ":"
      colon > line.lowerBound,
      buffer[line.lowerBound..<colon].allSatisfy({ (33...126).contains($0) })
    else { throw .badHeader(quote(line)) }
    return colon
  }

  /// The line at `line` as a header error quotes it: its first 40 bytes, no character cut in
  /// two, control characters escaped.
  private func quote(_ line: Range<Int>) -> String {
    // The byte at the line's end (a newline, or none) never moves the cut.
    let cut = CharacterCut.index(min(line.upperBound, line.lowerBound + 40), in: buffer)
    let text = String(decoding: buffer[line.lowerBound..<cut], as: UTF8.self)
    return ControlCharacters.escaped(text) + (cut < line.upperBound ? "…" : "")
  }

  /// Sets `O_NONBLOCK` on `descriptor` if it is a pipe or a socket; returns whether it did.
  private static func makeNonblocking(_ descriptor: Int32) -> Bool {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return false }
    let kind = status.st_mode & S_IFMT
    guard kind == S_IFIFO || kind == S_IFSOCK else { return false }
    let flags = fcntl(descriptor, F_GETFL)
    guard flags >= 0 else { return false }
    return flags & O_NONBLOCK != 0 || fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0
  }

  /// Whether a `read` of `descriptor` would return at once (bytes or the end); `waiting` waits
  /// until it would.
  static func readable(_ descriptor: Int32, waiting: Bool) throws(FrameError) -> Bool {
    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      let count = poll(&request, 1, waiting ? -1 : 0)
      if count < 0, errno == EINTR { continue }
      if count < 0 { throw .readFailed(errno: errno) }
      return count > 0
    }
  }

  /// The value of the header line at `line` when it is `Content-Length` (in any case), nil
  /// for an empty line or another header; throws for a line that is not a header.
  private func contentLength(_ line: Range<Int>) throws(FrameError) -> Int? {
    guard let colon = try checkName(line) else { return nil }
    let name = "content-length".utf8
    guard colon - line.lowerBound == name.count else { return nil }
    for (offset, lower) in name.enumerated() {
      let byte = buffer[line.lowerBound + offset]
      guard byte == lower || (65...90).contains(byte) && byte + 32 == lower else { return nil }
    }
    var position = colon + 1
    if position < line.upperBound, buffer[position] == 32 { position += 1 }  // one optional space
    // Up to 18 plain digits always fit `Int`; anything else (a sign, more digits, no digit)
    // is left to `Int`'s parser.
    var value = 0
    var plain = position < line.upperBound && line.upperBound - position <= 18
    for index in position..<line.upperBound where plain {
      let byte = buffer[index]
      plain = (48...57).contains(byte)
      value = value &* 10 &+ Int(byte &- 48)
    }
    if !plain {
      guard let parsed = Int(String(decoding: buffer[position..<line.upperBound], as: UTF8.self)),
        parsed >= 0
      else { throw .badHeader(quote(line)) }
      value = parsed
    }
    guard value <= Self.maximumBodySize else { throw .tooLarge(value) }
    return value
  }

  /// Where the header's closing `\r\n\r\n` starts, or nil when it has not arrived.
  private func headerEnd() -> Int? {
    var index = start
    while index + 3 < buffer.count {
      if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13,
        buffer[index + 3] == 10
      {
        return index
      }
      index += 1
    }
    return nil
  }
}

/// Writes frames to a file descriptor, one whole frame at a time even from many threads.
package final class FrameWriter: Sendable {
  private let descriptor: Int32
  /// Whether ``close()`` closed the descriptor; read and written under the lock, which also
  /// keeps one frame's bytes together.
  private let closed = Locked(false)

  package init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Closes the descriptor (the reader sees the end of input); later frames fail.
  package func close() {
    closed.withLock { closed in
      guard !closed else { return }
      closed = true
      _ = systemClose(descriptor)
    }
  }

  /// Writes `body` as one frame.
  package func send(_ body: String) throws(FrameError) {
    try send(Array(body.utf8))
  }

  /// Writes `body` as one frame: its header and it in one `writev`.
  package func send(_ body: [UInt8]) throws(FrameError) {
    let failure: Int32? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { space in
      let header = UnsafeRawBufferPointer(
        UnsafeMutableBufferPointer(rebasing: space[..<Self.header(body.count, in: space)]))
      return closed.withLock { closed in
        if closed { return EBADF }
        return body.withUnsafeBytes { Self.write(descriptor, header, $0) }
      }
    }
    if let failure { throw .writeFailed(errno: failure) }
  }

  /// Writes `Content-Length: <count>\r\n\r\n` at the start of `space` (48 bytes are enough);
  /// returns its length.
  private static func header(_ count: Int, in space: UnsafeMutableBufferPointer<UInt8>) -> Int {
    var length = 0
    for byte in "Content-Length: ".utf8 {
      space[length] = byte
      length += 1
    }
    var digits = 1
    var rest = count
    while rest >= 10 {
      rest /= 10
      digits += 1
    }
    rest = count
    for position in stride(from: length + digits - 1, through: length, by: -1) {
      space[position] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    }
    length += digits
    for byte in "\r\n\r\n".utf8 {
      space[length] = byte
      length += 1
    }
    return length
  }

  /// Writes all of `head` then `tail`, in one system call unless the pipe takes less (then
  /// the rest, waiting for room); returns the error number on failure.
  private static func write(
    _ descriptor: Int32, _ head: UnsafeRawBufferPointer, _ tail: UnsafeRawBufferPointer
  ) -> Int32? {
    var (head, tail) = (head, tail)
    while !head.isEmpty || !tail.isEmpty {
      let count = withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { vectors in
        vectors[0] = iovec(
          iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress), iov_len: head.count)
        vectors[1] = iovec(
          iov_base: UnsafeMutableRawPointer(mutating: tail.baseAddress), iov_len: tail.count)
        return writev(descriptor, vectors.baseAddress, 2)
      }
      if count < 0 {
        if errno == EINTR { continue }
        // A descriptor read and written both (a socket) may be non-blocking: wait for room.
        if errno == EAGAIN || errno == EWOULDBLOCK {
          var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          _ = poll(&request, 1, -1)
          continue
        }
        return errno
      }
      let fromHead = min(count, head.count)
      head = UnsafeRawBufferPointer(rebasing: head[fromHead...])
      tail = UnsafeRawBufferPointer(rebasing: tail[(count - fromHead)...])
    }
    return nil
  }
}

/// Why a frame could not be read or written.
package enum FrameError: Error, Sendable, Hashable, CustomStringConvertible {
  case badHeader(String)
  case missingLength
  case tooLarge(Int)
  case truncated
  case readFailed(errno: Int32)
  case writeFailed(errno: Int32)

  package var description: String {
    switch self {
    case .badHeader(let line): "malformed frame header: \(line)"
    case .missingLength: "frame without Content-Length"
    case .tooLarge(let size):
      "frame of \(size) bytes is larger than \(FrameReader.maximumBodySize) bytes"
    case .truncated: "the stream ended inside a frame"
    case .readFailed(let code): "read failed: \(String(cString: strerror(code)))"
    case .writeFailed(let code): "write failed: \(String(cString: strerror(code)))"
    }
  }

  /// Whether a write found the reading end closed (`EPIPE`): the peer closed its input.
  package var isBrokenPipe: Bool { self == .writeFailed(errno: EPIPE) }
}

private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
