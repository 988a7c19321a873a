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
/// ```swift
/// var reader = FrameReader(descriptor: pipe.read)
/// while let body = try reader.next() { handle(body) }
/// ```
package struct FrameReader {
  /// The largest body accepted; a peer announcing more is broken or hostile.
  package static let maximumBodySize = 64 << 20

  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private var start = 0
  /// What one `read` fills, allocated once.
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)

  package init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(1 << 16)
  }

  /// The next frame's body, or nil at end of input between frames.
  package mutating func next() throws(FrameError) -> [UInt8]? {
    var length: Int?
    while true {
      guard let line = try readLine() else {
        if length == nil, start == buffer.count { return nil }
        throw .truncated
      }
      if line.isEmpty { break }
      let text = String(decoding: line, as: UTF8.self)
      guard let colon = text.firstIndex(of: ":") else { throw .badHeader(text) }
      let name = text[..<colon].lowercased()
      let value = text[text.index(after: colon)...].trimmingPrefix(" ")
      if name == "content-length" {
        guard let parsed = Int(value), parsed >= 0 else { throw .badHeader(text) }
        guard parsed <= Self.maximumBodySize else { throw .tooLarge(parsed) }
        length = parsed
      }
    }
    guard let length else { throw .missingLength }
    while buffer.count - start < length {
      guard try fill() else { throw .truncated }
    }
    let body = Array(buffer[start..<start + length])
    start += length
    return body
  }

  /// A header line without its `\r\n`, or nil at end of input.
  private mutating func readLine() throws(FrameError) -> ArraySlice<UInt8>? {
    var scanned = start
    while true {
      while scanned + 1 < buffer.count {
        if buffer[scanned] == 13, buffer[scanned + 1] == 10 {
          let line = buffer[start..<scanned]
          start = scanned + 2
          return line
        }
        scanned += 1
      }
      guard buffer.count - start < 8192 else { throw .badHeader("a header line over 8 KiB") }
      let offset = scanned - start
      guard try fill() else { return nil }
      scanned = start + offset
    }
  }

  /// Reads more bytes, compacting the buffer first; false at end of input.
  private mutating func fill() throws(FrameError) -> Bool {
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
      buffer.append(contentsOf: chunk[..<count])
      return count > 0
    }
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
