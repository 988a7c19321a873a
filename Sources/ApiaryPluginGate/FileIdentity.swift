#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file as the gate read it: its device and inode say which file (two paths to one file share
/// them, ``isSameFile(as:)``), its size and modification time which contents. A library rebuilt
/// in place, or renamed over, differs in one of the four.
///
/// ```swift
/// let plugin = LoadGate.check(candidates, host: host).plugins[0]
/// if FileIdentity(of: plugin.candidate.library) != plugin.identity {
///   print("changed since the gate read it")
/// }
/// ```
public struct FileIdentity: Hashable, Sendable, CustomStringConvertible {
  public let device: UInt64
  public let inode: UInt64
  public let size: Int64
  /// The modification time: seconds and nanoseconds since 1970.
  public let seconds: Int
  public let nanoseconds: Int

  /// The identity in `status`, from `stat` or `fstat`.
  init(_ status: stat) {
    (device, inode, size) = (UInt64(status.st_dev), UInt64(status.st_ino), Int64(status.st_size))
    #if canImport(Darwin)
      (seconds, nanoseconds) = (status.st_mtimespec.tv_sec, status.st_mtimespec.tv_nsec)
    #else
      (seconds, nanoseconds) = (status.st_mtim.tv_sec, status.st_mtim.tv_nsec)
    #endif
  }

  /// The identity of the file at `path` now (through symbolic links), nil when it cannot be
  /// read.
  public init?(of path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    self.init(status)
  }

  /// Whether `other` is the same file, whatever its contents.
  func isSameFile(as other: FileIdentity) -> Bool {
    device == other.device && inode == other.inode
  }

  public var description: String {
    "device \(device), inode \(inode), size \(size), modified \(seconds).\(nanoseconds)"
  }
}
