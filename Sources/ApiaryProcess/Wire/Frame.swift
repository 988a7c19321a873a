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
  /// What one `read` fills, allocated once.
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)

  package init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(1 << 16)
  }

  /// The next frame's body, waiting for it; nil at end of input between frames.
  package mutating func next() throws(FrameError) -> [UInt8]? {
    while true {
      if let body = try buffered() { return body }
      if try fill(waiting: true) == .end { return nil }
    }
  }

  /// The next frame's body if all of it has been read, else nil (nothing is consumed).
  package mutating func buffered() throws(FrameError) -> [UInt8]? {
    guard let end = headerEnd() else {
      guard buffer.count - start <= Self.maximumHeaderSize else {
        throw .badHeader("a header over 8 KiB")
      }
      return nil
    }
    var length: Int?
    // Bytes, not strings: this runs once per message on the round trip's critical path.
    for raw in buffer[start..<end].split(separator: 10) {
      let line = raw.last == 13 ? raw.dropLast() : raw
      guard !line.isEmpty else { continue }
      let text = { String(decoding: line, as: UTF8.self) }
      guard let colon = line.firstIndex(of: 58) else { throw .badHeader(text()) }  // ":"
      guard Self.isContentLength(line[..<colon]) else { continue }
      var value = line[(colon + 1)...]
      if value.first == 32 { value = value.dropFirst() }  // one optional space
      guard let parsed = Int(String(decoding: value, as: UTF8.self)), parsed >= 0 else {
        throw .badHeader(text())
      }
      guard parsed <= Self.maximumBodySize else { throw .tooLarge(parsed) }
      length = parsed
    }
    guard let length else { throw .missingLength }
    let bodyStart = end + 4
    guard buffer.count - bodyStart >= length else { return nil }
    start = bodyStart + length
    return Array(buffer[bodyStart..<start])
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
    guard try Self.readable(descriptor, waiting: waiting) else { return .nothing }
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
      if count < 0 { throw .readFailed(errno: errno) }
      if count == 0 {
        if start < buffer.count { throw .truncated }
        return .end
      }
      buffer.append(contentsOf: chunk[..<count])
      return .bytes
    }
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

  /// Whether a header field's name is `Content-Length`, in any case.
  private static func isContentLength(_ name: ArraySlice<UInt8>) -> Bool {
    let expected = "content-length".utf8
    guard name.count == expected.count else { return false }
    return zip(name, expected).allSatisfy { byte, lower in
      (65...90).contains(byte) ? byte + 32 == lower : byte == lower
    }
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
    var frame = "Content-Length: \(body.utf8.count)\r\n\r\n"
    frame += body
    let failure: Int32? = closed.withLock { closed in
      if closed { return EBADF }
      return frame.withUTF8 { bytes in
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
          let count = write(descriptor, base + offset, bytes.count - offset)
          if count < 0 {
            if errno == EINTR { continue }
            return errno
          }
          offset += count
        }
        return nil
      }
    }
    if let failure { throw .writeFailed(errno: failure) }
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
}

private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
