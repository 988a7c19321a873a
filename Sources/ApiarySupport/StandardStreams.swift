#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes texts to standard output or error whole: however many `write` calls a text takes,
/// no other thread's text lands between them.
///
/// A pipe takes a write longer than `PIPE_BUF` (4 KiB) in parts as room frees up, so without
/// the lock a result could land in the middle of a child's long line (`2>&1 | tee`). Standard
/// output and error share one lock when they are the same file; otherwise each has its own,
/// so a stream nobody reads holds up only its own writers. When the other end is gone (a
/// closed pipe, once the host ignores `SIGPIPE`) or the device is full, the rest is dropped and
/// the error number returned, for a command whose one result it was.
///
/// ```swift
/// StandardStreams.send("[search] rebuilding index\n", to: STDERR_FILENO)
/// ```
package enum StandardStreams {
  @discardableResult
  package static func send(_ text: String, to descriptor: Int32) -> Int32? {
    let lock = descriptor == STDOUT_FILENO ? outputLock : errorLock
    return lock.withLock { _ in writeAll(text, to: descriptor) }
  }

  /// Sends each of `lines`, escaped with ``ControlCharacters/escaped(_:)``, and a newline, as
  /// one text.
  @discardableResult
  package static func send(lines: some Sequence<String>, to descriptor: Int32) -> Int32? {
    var text = ""
    for line in lines {
      text += ControlCharacters.escaped(line)
      text += "\n"
    }
    return send(text, to: descriptor)
  }

  private static let errorLock = Locked(())
  private static let outputLock: Locked<Void> = {
    var output = stat()
    var error = stat()
    let same =
      fstat(STDOUT_FILENO, &output) == 0 && fstat(STDERR_FILENO, &error) == 0
      && output.st_dev == error.st_dev && output.st_ino == error.st_ino
    return same ? errorLock : Locked(())
  }()

  /// Writes all of `text`, waiting while a non-blocking descriptor (one another process set so)
  /// is full; the error number when it could not.
  private static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { bytes in
      var rest = UnsafeRawBufferPointer(bytes)
      while !rest.isEmpty {
        let written = write(descriptor, rest.baseAddress, rest.count)
        if written < 0, errno == EINTR { continue }
        if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
          var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          _ = poll(&ready, 1, -1)
          continue
        }
        guard written > 0 else { return written < 0 ? errno : EIO }
        rest = UnsafeRawBufferPointer(rebasing: rest[written...])
      }
      return nil
    }
  }
}
