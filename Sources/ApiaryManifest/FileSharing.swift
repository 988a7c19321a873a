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
/// Automatically, only a directory of at least ``least`` files, in a process that may run on
/// more than one core (``usableCores()``), shares its files: a small application, or one
/// pinned to a core, pays for no thread.
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
  /// Cores this process may run on (``usableCores()``); one reads on one thread.
  var cores = FileSharing.processCores
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

  private static let processCores = usableCores()

  /// The cores the calling thread may run on, as `nproc` counts them: those of its affinity
  /// mask (`taskset -c 0 apiary …` leaves one, and a helper would only take turns with the
  /// loading thread on it), else the cores online.
  static func usableCores() -> Int {
    #if os(Linux)
      var mask = [UInt8](repeating: 0, count: 128)  // a cpu_set_t: 1,024 cores
      if let getAffinity,
        mask.withUnsafeMutableBytes({ getAffinity(0, $0.count, $0.baseAddress) }) == 0
      {
        let count = mask.reduce(0) { $0 + $1.nonzeroBitCount }
        if count > 0 { return count }
      }
    #endif
    return Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
  }

  #if os(Linux)
    /// `sched_getaffinity`, which the C library has but its Swift module does not declare.
    private typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer?) -> Int32
    private static let getAffinity: GetAffinity? = dlsym(nil, "sched_getaffinity").map {
      unsafeBitCast($0, to: GetAffinity.self)
    }
  #endif
}
