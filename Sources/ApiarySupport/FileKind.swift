#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a path names, as `stat` sees it (following symbolic links, as opening it would).
///
/// ```swift
/// FileKind(path: "Manifests")  // .directory; nil when nothing is there
/// ```
package enum FileKind {
  case directory
  /// A regular file, a device, a FIFO or a socket: anything but a directory.
  case other

  /// The kind of file at `path`, or nil when there is none (or it cannot be asked).
  package init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    self = status.st_mode & S_IFMT == S_IFDIR ? .directory : .other
  }
}
