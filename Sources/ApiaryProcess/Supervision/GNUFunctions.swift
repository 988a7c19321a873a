#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// glibc functions Swift's `Glibc` module hides (they need `_GNU_SOURCE`), looked up once with
/// `dlsym`. Both exist since glibc 2.34; where one is missing, the caller falls back.
enum GNUFunctions {
  typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
  typealias CloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32)
    -> Int32

  /// `pipe2`: a pipe whose ends are close-on-exec from the start, so a child another thread
  /// spawns at the same moment cannot inherit them.
  static let pipe2: Pipe2? = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }

  /// `posix_spawn_file_actions_addclosefrom_np`: the child closes every descriptor from a number
  /// on, including ones plugin code opened without close-on-exec.
  static let closeFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
    unsafeBitCast($0, to: CloseFrom.self)
  }

  /// A pipe, both ends close-on-exec: `(read, write)`.
  static func closeOnExecPipe() -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    if let pipe2 {
      guard pipe2(&ends, O_CLOEXEC) == 0 else { return nil }
    } else {
      guard pipe(&ends) == 0 else { return nil }
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    }
    return (ends[0], ends[1])
  }
}
