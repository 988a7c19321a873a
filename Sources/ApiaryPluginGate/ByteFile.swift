#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open regular file read at offsets, never past its size or a read bound. A small file (at
/// most ``wholeFileSize``, like a plugin with a few types) is read whole by one `pread`, and every
/// range is then a slice of that one buffer, not a copy: each system call and each allocation
/// costs more than the bytes a range holds. Of a larger
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
  /// The bytes read first: the first `headCount` bytes of the file (all of a small one). A small
  /// file's buffer is ``wholeFileSize`` bytes, taken from ``spare`` when there is one.
  private var head: [UInt8] = []
  private var headCount = 0

  /// Opens `path` and reads its first `head` bytes, or all of it when it is small and `head` is
  /// not 0 (0 for none: `SHA256` reads in chunks).
  convenience init(path: String, head headSize: Int = ByteFile.headSize) throws(PluginProblem) {
    let descriptor = Self.openForReading(path)
    guard descriptor >= 0 else {
      let code = errno
      throw PluginProblem(
        .unreadable, file: path,
        message: code == ENOENT ? "file not found" : "cannot open: \(Self.describe(code))",
        hint: code == ENOENT
          ? "build the plugin first (\(Self.buildCommand(for: path))), or fix the library path"
          : nil)
    }
    try self.init(path: path, descriptor: descriptor, head: headSize)
  }

  /// The `swift build` that puts a library at `path`: `-c release` for a path in a release
  /// build folder (the scaffolded manifest's), as plain `swift build` builds debug, with
  /// `--package-path` naming the package of a path in its `.build` folder, else said in words.
  ///
  /// ```swift
  /// ByteFile.buildCommand(for: "Tags/.build/release/libTags.so")
  /// // "'swift build -c release --package-path Tags'"
  /// ```
  static func buildCommand(for path: String) -> String {
    let command = path.contains("/release/") ? "swift build -c release" : "swift build"
    let bytes = Array(path.utf8)
    let marker = Array("/.build/".utf8)
    guard
      let start = bytes.indices.dropLast(marker.count - 1).first(where: {
        bytes[$0..<$0 + marker.count].elementsEqual(marker)
      })
    else { return "'\(command)' in its package" }
    let package = start == 0 ? "/" : String(decoding: bytes[..<start], as: UTF8.self)
    return "'\(command) --package-path \(package)'"
  }

  /// The file at `path` with its first ``headSize`` bytes read, or `nil` when it cannot be
  /// opened or read, as the dynamic loader skips such a file when it searches for a library.
  /// Most paths a search tries do not exist, and no problem is made for them.
  static func ifReadable(_ path: String) -> ByteFile? {
    let descriptor = openForReading(path)
    guard descriptor >= 0 else { return nil }
    return try? ByteFile(path: path, descriptor: descriptor, head: headSize)
  }

  /// O_NONBLOCK: opening a FIFO must not wait for a writer; regular files ignore it.
  private static func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
  }

  /// Reads the open file `descriptor` (named `path`), which it then owns: closed when it is
  /// released, or at once when this throws.
  private init(path: String, descriptor: Int32, head headSize: Int) throws(PluginProblem) {
    self.path = path
    self.descriptor = descriptor
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let code = errno
      close(descriptor)
      throw PluginProblem(.unreadable, file: path, message: "cannot stat: \(Self.describe(code))")
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      throw PluginProblem(
        .unreadable, file: path, expected: "a shared library file",
        found: Self.describe(kind: status.st_mode & S_IFMT))
    }
    size = Int(status.st_size)
    identity = FileIdentity(status)
    let first = headSize > 0 && size <= Self.wholeFileSize ? size : min(size, headSize)
    try checkRange(offset: 0, count: first, what: "data")
    if first == size && headSize > 0 {
      head = Self.spare.take()
      if head.count != Self.wholeFileSize {
        // Uninitialized: the read fills what is used, and zeroing it first was a measurable
        // part of a load.
        head = [UInt8](unsafeUninitializedCapacity: Self.wholeFileSize) { $1 = $0.count }
      }
      var failure: PluginProblem?
      head.withUnsafeMutableBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        do throws(PluginProblem) {
          try fill(base, offset: 0, count: first, what: "data")
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
    } else {
      // A larger file's ranges are arrays of their own: the spare buffer, dropped here, hands
      // its pages, touched by an earlier run, to the allocator those arrays come from (about
      // 25 µs of NotesPlugin and its contract library after another plugin; BENCHMARKS.md).
      if headSize > 0 { _ = Self.spare.take() }
      head = try readFresh(offset: 0, count: first, what: "data")
    }
    headCount = first
  }

  /// Closes the file, and keeps a small file's buffer for the next small file. Whatever still
  /// reads its bytes (an image's slices) keeps them: the next file's read into the buffer then
  /// copies it first (arrays copy on write), so a late reader costs time, never bytes.
  deinit {
    close(descriptor)
    if head.count == Self.wholeFileSize { Self.spare.keep(head) }
  }

  /// `count` bytes at `offset`, a slice of the whole file's buffer when it was read whole (its
  /// indices are the file's offsets then, so use `startIndex`); a range outside the file is a
  /// malformed-ELF problem naming `what` (made only then: a section's is an interpolation).
  func read(offset: Int, count: Int, what: @autoclosure () -> String = "data")
    throws(PluginProblem) -> ArraySlice<UInt8>
  {
    if offset >= 0, count >= 0, offset <= headCount, count <= headCount - offset {
      return head[offset..<offset + count]
    }
    try checkRange(offset: offset, count: count, what: what())
    return try readFresh(offset: offset, count: count, what: what())[...]
  }

  /// Throws when `count` bytes at `offset` are not all in the file or are too many to read;
  /// `what` (the range's name in the problem) is made only then.
  private func checkRange(offset: Int, count: Int, what: @autoclosure () -> String)
    throws(PluginProblem)
  {
    guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
      throw PluginProblem(
        .malformedELF, file: path, field: what(),
        expected: "a range inside the file (\(size) bytes)",
        found: "\(count) bytes at offset \(offset)")
    }
    guard count <= Self.maximumRead else {
      throw PluginProblem(
        .malformedELF, file: path, field: what(), expected: "at most \(Self.maximumRead) bytes",
        found: "\(count) bytes")
    }
  }

  /// `count` bytes at `offset` (checked by ``checkRange(offset:count:what:)``), read now into
  /// a new array.
  private func readFresh(offset: Int, count: Int, what: @autoclosure () -> String)
    throws(PluginProblem) -> [UInt8]
  {
    var failure: PluginProblem?
    // Uninitialized: the reads fill it, and zeroing it first was a measurable part of a load.
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      do throws(PluginProblem) {
        try fill(UnsafeMutableRawPointer(base), offset: offset, count: count, what: what())
        initialized = count
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    return bytes
  }

  /// Reads `count` bytes at `offset` into `base`.
  private func fill(
    _ base: UnsafeMutableRawPointer, offset: Int, count: Int, what: @autoclosure () -> String
  ) throws(PluginProblem) {
    var done = 0
    while done < count {
      let got = pread(descriptor, base + done, count - done, off_t(offset + done))
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else {
        let reason = got < 0 ? Self.describe(errno) : "the file ended early"
        throw PluginProblem(
          .unreadable, file: path, message: "cannot read \(what()): \(reason)",
          hint: "was the file changed while it was read?")
      }
      done += got
    }
  }

  /// The one buffer kept for the next small file, so that a plugin after the first is read into
  /// memory the process has touched already: a fresh buffer's pages fault in on first touch, a
  /// few microseconds each on a VM (BENCHMARKS.md, "Plugins"). A larger file drops it, for its
  /// ranges to reuse those pages.
  private static let spare = SpareBuffer()

  /// Feeds the whole file, in chunks, to `body`.
  func forEachChunk(_ body: ([UInt8]) -> Void) throws(PluginProblem) {
    var offset = 0
    while offset < size {
      let count = min(1 << 20, size - offset)
      try checkRange(offset: offset, count: count, what: "contents")
      body(try readFresh(offset: offset, count: count, what: "contents"))
      offset += count
    }
  }

  private static func describe(_ code: Int32) -> String {
    strerror(code).map { String(cString: $0) } ?? "error \(code)"
  }

  /// What a file that is not regular is, from its `st_mode & S_IFMT`: `a directory`, …
  private static func describe(kind: mode_t) -> String {
    switch kind {
    case S_IFDIR: "a directory"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }
}

/// One reusable buffer behind a lock: gate runs may run on several threads at once.
// @unchecked Sendable: `buffer` is read and written only while `mutex` is held, and the mutex
// is allocated once and never freed (the one instance lives as long as the process).
private final class SpareBuffer: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var buffer: [UInt8] = []

  init() {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  /// The kept buffer, no longer kept (empty when there is none).
  func take() -> [UInt8] {
    var taken: [UInt8] = []
    pthread_mutex_lock(mutex)
    swap(&taken, &buffer)
    pthread_mutex_unlock(mutex)
    return taken
  }

  func keep(_ spare: [UInt8]) {
    pthread_mutex_lock(mutex)
    if buffer.isEmpty { buffer = spare }
    pthread_mutex_unlock(mutex)
  }
}
