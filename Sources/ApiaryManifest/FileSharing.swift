import ApiarySupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the module files of one directory are read and decoded on two threads, and how:
/// the loading thread takes chunks of files from the front, a helper thread from the back,
/// until they meet (``ChunkBoard``), and the helper's chunks are joined back in file order, so
/// the modules, problems and their order are those one thread finds.
///
/// Automatically, only a directory of at least ``least`` files on a machine with more than
/// one core shares its files: a small application pays for no thread.
///
/// ```swift
/// FileSharing.automatic.chunks(for: 10_000)  // 157 ranges of 64 files on two cores; nil on one
/// ```
struct FileSharing: Sendable {
  /// Fewer files are read on the loading thread alone.
  var least = 256
  /// Files in a chunk: enough that claiming one costs little beside reading it, few enough
  /// that a helper that starts late, or runs on a busy core, still takes a share.
  var chunk = 64
  /// Cores online; one reads on one thread.
  var cores = FileSharing.onlineCores
  /// Runs the helper's work on a thread of its own; tests run it where they choose.
  var startHelper: @Sendable (@escaping @Sendable () -> Void) -> Void = { work in
    DetachedThread.start(name: "apiary-files", work)
  }
  /// Told of each step, on the thread that takes it; tests gate the threads here.
  var observe: (@Sendable (ChunkBoard.Step) -> Void)?

  static let automatic = FileSharing()

  /// The files of each chunk when `count` files are shared; nil when they are read on one
  /// thread.
  func chunks(for count: Int) -> [Range<Int>]? {
    guard cores > 1, count >= least, chunk > 0 else { return nil }
    return stride(from: 0, to: count, by: chunk).map { $0..<min($0 + chunk, count) }
  }

  private static let onlineCores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}
