#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open regular file read at offsets, never past its size or a read bound. A small file (at
/// most ``wholeFileSize``, like a plugin with a few types) is read whole by one `pread`, and every
/// range is then a copy: each system call costs more than copying a few kilobytes. Of a larger
/// file the first `headSize` bytes (the ELF header) are read once and every other range on its
/// own, so the gate reads the few kilobytes it needs, not the whole file: every page a read
/// fills is fresh memory the kernel must fault in and zero (BENCHMARKS.md, "Plugins").
final class ByteFile {
  /// The largest single read: no section the gate needs is anywhere near it.
  static let maximumRead = 64 << 20
  /// What the first read takes: the ELF64 file header.
  static let headSize = 64
  /// The largest file read whole.
  static let wholeFileSize = 64 << 10

  let path: String
  let size: Int
  /// The device and inode: two paths to the same file are the same library.
  let identity: FileIdentity
  private let descriptor: Int32
  private var head: [UInt8] = []

  /// Opens `path` and reads its first `head` bytes, or all of it when it is small and `head` is
  /// not 0 (0 for none: `SHA256` reads in chunks).
  init(path: String, head headSize: Int = ByteFile.headSize) throws(PluginProblem) {
    self.path = path
    // O_NONBLOCK: opening a FIFO must not wait for a writer; regular files ignore it.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      let code = errno
      throw PluginProblem(
        .unreadable, file: path,
        message: code == ENOENT ? "file not found" : "cannot open: \(Self.describe(code))",
        hint: code == ENOENT
          ? "build the plugin first ('swift build' in its package), or fix the library path"
          : nil)
    }
    self.descriptor = descriptor
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let code = errno
      throw PluginProblem(.unreadable, file: path, message: "cannot stat: \(Self.describe(code))")
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      let kind = status.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a regular file"
      throw PluginProblem(
        .unreadable, file: path, expected: "a shared library file", found: kind)
    }
    size = Int(status.st_size)
    identity = FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    let first = headSize > 0 && size <= Self.wholeFileSize ? size : min(size, headSize)
    head = try read(offset: 0, count: first)
  }

  deinit { close(descriptor) }

  /// `count` bytes at `offset`; a range outside the file is a malformed-ELF problem naming `what`.
  func read(offset: Int, count: Int, what: String = "data") throws(PluginProblem) -> [UInt8] {
    guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
      throw PluginProblem(
        .malformedELF, file: path, field: what,
        expected: "a range inside the file (\(size) bytes)",
        found: "\(count) bytes at offset \(offset)")
    }
    guard count <= Self.maximumRead else {
      throw PluginProblem(
        .malformedELF, file: path, field: what, expected: "at most \(Self.maximumRead) bytes",
        found: "\(count) bytes")
    }
    if offset + count <= head.count { return Array(head[offset..<offset + count]) }
    var failure: Int32?
    // Uninitialized: the reads fill it, and zeroing it first was a measurable part of a load.
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      while initialized < count {
        let got = pread(
          descriptor, base + initialized, count - initialized, off_t(offset + initialized))
        if got < 0 && errno == EINTR { continue }
        guard got > 0 else {
          failure = got < 0 ? errno : 0
          return
        }
        initialized += got
      }
    }
    if let failure {
      let reason = failure != 0 ? Self.describe(failure) : "the file ended early"
      throw PluginProblem(
        .unreadable, file: path, message: "cannot read \(what): \(reason)",
        hint: "was the file changed while it was read?")
    }
    return bytes
  }

  /// Feeds the whole file, in chunks, to `body`.
  func forEachChunk(_ body: ([UInt8]) -> Void) throws(PluginProblem) {
    var offset = 0
    while offset < size {
      let count = min(1 << 20, size - offset)
      body(try read(offset: offset, count: count, what: "contents"))
      offset += count
    }
  }

  private static func describe(_ code: Int32) -> String {
    strerror(code).map { String(cString: $0) } ?? "error \(code)"
  }
}

/// A file's device and inode numbers.
struct FileIdentity: Hashable, Sendable {
  let device: UInt64
  let inode: UInt64
}
