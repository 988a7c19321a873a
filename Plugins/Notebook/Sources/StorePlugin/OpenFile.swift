#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open file descriptor and the few POSIX calls the store makes on it. Every failure is a
/// ``StoreError/system(operation:file:code:)`` naming the path.
///
/// ```swift
/// let file = try OpenFile(".apiary-data/notes.lock", create: true)
/// try file.lock()
/// defer { file.unlock(); file.close() }
/// ```
struct OpenFile: Sendable {
  let descriptor: Int32
  let path: String

  /// Opens `path` for reading and writing (creating it when `create`); nil when it does not
  /// exist and `create` is false.
  init?(_ path: String, create: Bool = false, truncate: Bool = false) throws(StoreError) {
    var flags = O_RDWR | O_CLOEXEC
    if create { flags |= O_CREAT }
    if truncate { flags |= O_TRUNC }
    let descriptor = Self.retrying { open(path, flags, 0o644) }
    guard descriptor >= 0 else {
      if errno == ENOENT, !create { return nil }
      throw .system(operation: "open", file: path, code: errno)
    }
    self.descriptor = descriptor
    self.path = path
  }

  func close() { closeDescriptor(descriptor) }

  /// Takes the exclusive advisory lock (`flock`), waiting for other holders. Locks belong to the
  /// open file, so two `OpenFile`s of one path exclude each other even in one process, and the
  /// system drops the lock when its holder dies.
  func lock() throws(StoreError) {
    guard Self.retrying({ flock(descriptor, LOCK_EX) }) == 0 else {
      throw .system(operation: "lock", file: path, code: errno)
    }
  }

  func unlock() { _ = flock(descriptor, LOCK_UN) }

  var identity: FileIdentity {
    get throws(StoreError) {
      var info = stat()
      guard fstat(descriptor, &info) == 0 else {
        throw .system(operation: "stat", file: path, code: errno)
      }
      return FileIdentity(info)
    }
  }

  var size: Int {
    get throws(StoreError) {
      var info = stat()
      guard fstat(descriptor, &info) == 0 else {
        throw .system(operation: "stat", file: path, code: errno)
      }
      return Int(info.st_size)
    }
  }

  /// `count` bytes from `offset`, fewer only at the end of the file.
  func read(from offset: Int, count: Int) throws(StoreError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let got = bytes.withUnsafeMutableBytes { buffer in
        Self.retrying {
          pread(
            descriptor, buffer.baseAddress?.advanced(by: done), count - done, off_t(offset + done))
        }
      }
      guard got >= 0 else { throw .system(operation: "read", file: path, code: errno) }
      if got == 0 { break }
      done += got
    }
    return Array(bytes.prefix(done))
  }

  func readAll() throws(StoreError) -> [UInt8] { try read(from: 0, count: try size) }

  func write(_ bytes: [UInt8], at offset: Int) throws(StoreError) {
    var done = 0
    while done < bytes.count {
      let put = bytes.withUnsafeBytes { buffer in
        Self.retrying {
          pwrite(
            descriptor, buffer.baseAddress?.advanced(by: done), bytes.count - done,
            off_t(offset + done))
        }
      }
      guard put > 0 else { throw .system(operation: "write", file: path, code: errno) }
      done += put
    }
  }

  func truncate(to length: Int) throws(StoreError) {
    guard Self.retrying({ ftruncate(descriptor, off_t(length)) }) == 0 else {
      throw .system(operation: "truncate", file: path, code: errno)
    }
  }

  /// Flushes the file's data and the metadata needed to read it back (its size) to the device.
  /// `fdatasync` rather than `fsync`: an append must survive a crash, its modification time
  /// need not, and skipping the time saves a second write on most file systems.
  func synchronizeData() throws(StoreError) {
    #if os(Linux)
      let status = Self.retrying { fdatasync(descriptor) }
    #else
      let status = Self.retrying { fsync(descriptor) }
    #endif
    guard status == 0 else { throw .system(operation: "sync", file: path, code: errno) }
  }

  /// Flushes data and all metadata: for new files and directories, whose names must persist.
  func synchronize() throws(StoreError) {
    guard Self.retrying({ fsync(descriptor) }) == 0 else {
      throw .system(operation: "sync", file: path, code: errno)
    }
  }

  /// The identity of the file at `path` now, or nil when there is none.
  static func identity(at path: String) throws(StoreError) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { return nil }
      throw .system(operation: "stat", file: path, code: errno)
    }
    return FileIdentity(info)
  }

  /// Makes the directory's entries durable: after a rename, so the new name survives a crash.
  static func synchronizeDirectory(_ path: String) throws(StoreError) {
    let descriptor = retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    guard descriptor >= 0 else { throw .system(operation: "open", file: path, code: errno) }
    defer { closeDescriptor(descriptor) }
    guard retrying({ fsync(descriptor) }) == 0 else {
      throw .system(operation: "sync", file: path, code: errno)
    }
  }

  static func move(_ source: String, to destination: String) throws(StoreError) {
    guard rename(source, destination) == 0 else {
      throw .system(operation: "rename to \(destination)", file: source, code: errno)
    }
  }

  /// Removes `path`; a missing file is not an error.
  static func remove(_ path: String) throws(StoreError) {
    guard unlink(path) == 0 || errno == ENOENT else {
      throw .system(operation: "remove", file: path, code: errno)
    }
  }

  /// Repeats `call` while it is interrupted by a signal.
  private static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
      let result = call()
      if result >= 0 || errno != EINTR { return result }
    }
  }
}

/// Which file a path names: two paths with equal identities are the same file. The store keeps
/// the files it read open, so their identities cannot be reused while it compares them.
struct FileIdentity: Equatable, Sendable {
  let device: UInt64
  let inode: UInt64

  init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }
}

private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

extension OpenFile {
  /// Creates `path` and its missing parents, like `mkdir -p`.
  static func createDirectory(_ path: String) throws(StoreError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix.append(contentsOf: component)
      prefix.append("/")
      guard mkdir(prefix, 0o755) == 0 || errno == EEXIST else {
        throw .system(operation: "create directory", file: prefix, code: errno)
      }
    }
  }
}
