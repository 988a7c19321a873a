import Dispatch
import Foundation
import Testing

@testable import Apiary
@testable import ApiaryManifest
@testable import ApiarySupport

/// Many module files are read on two threads (``FileSharing``, ``ChunkBoard``): the loading
/// thread from the front, a helper from the back. Whatever the threads' order, the modules,
/// problems, positions and their order are those one thread finds. Each interleaving here is
/// made by gates at the threads' steps, never by sleeping.
@Suite("Manifest: module files on two threads")
struct ModuleFilesConcurrencyTests {
  /// Six files, one a chunk: valid files (one with two modules), a syntax error, an unknown
  /// key, a file over the size limit, a directory named like a module file and a property
  /// list, so every kind of problem and both decoders are on both threads' sides.
  private let directory: ManifestDirectory
  private let files: [ModuleFiles.File]
  private let limits = ManifestLimits(fileSize: 600, depth: 64, values: 10_000)

  init() throws {
    directory = try ManifestDirectory()
    try directory.write("m/a.json", moduleFile(#"{"name": "a", "type": "T.M"}"#))
    try directory.write(
      "m/b.json",
      moduleFile(#"{"name": "b1", "type": "T.M"}"#, #"{"name": "b2", "type": "T.N", "priorty": 1}"#)
    )
    try directory.write("m/c.json", #"{"schemaVersion": 1, "modules": [}"#)
    try directory.write(
      "m/d.json",
      moduleFile(
        #"{"name": "d", "type": "T.M", "config": {"x": "\#(String(repeating: "x", count: 700))"}}"#)
    )
    try FileManager.default.createDirectory(
      atPath: "\(directory.path)/m/e.json", withIntermediateDirectories: true)
    try directory.write(
      "m/f.plist",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>schemaVersion</key><integer>1</integer>
      <key>modules</key><array><dict><key>name</key><string>f</string>
      <key>type</key><string>T.M</string><key>level</key><string>high</string></dict></array>
      </dict></plist>
      """)
    var problems: [ManifestProblem] = []
    files = ManifestLoader.moduleFiles(
      at: "\(directory.path)/m", SourceLocation(file: directory.path), &problems)
  }

  /// The files decoded with `sharing`, one file a chunk, on two cores whatever the machine.
  private func decoded(_ sharing: FileSharing) -> ManifestSet {
    var sharing = sharing
    (sharing.least, sharing.chunk, sharing.cores) = (1, 1, 2)
    var files = ModuleFiles(directory: "\(directory.path)/m", files: files)
    files.sharing = sharing
    var set = ManifestSet()
    files.decode(limits, inside: nil, into: &set)
    return set
  }

  /// What one thread finds: the fixture's modules and every problem, in file order.
  private var alone: ManifestSet {
    var files = ModuleFiles(directory: "\(directory.path)/m", files: files)
    files.sharing.cores = 1
    var set = ManifestSet()
    files.decode(limits, inside: nil, into: &set)
    return set
  }

  @Test func oneThreadFindsEveryModuleAndProblemInFileOrder() {
    let set = alone
    #expect(files.count == 6)
    #expect(set.modules.map(\.name) == ["a", "b1", "b2", "f"])
    #expect(
      set.problems.map { "\(($0.location.file as NSString).lastPathComponent) \($0.kind)" } == [
        "b.json unknownKey", "c.json syntax", "d.json limitExceeded", "e.json unreadable",
        "f.plist invalidValue",
      ])
  }

  /// The threads take turns: the loading thread claims chunk 0, the helper 5, then 1 and 4,
  /// 2 and 3; the loading thread then waits for the helper's chunk 3 and joins its chunks.
  @Test func threadsTakingTurnsFindWhatOneThreadFinds() {
    let (loader, helper) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let steps = Locked<[ChunkBoard.Step]>([])
    var sharing = FileSharing()
    sharing.startHelper = { work in
      DetachedThread.start(name: "apiary-test-helper") {
        helper.wait()
        work()
      }
    }
    sharing.observe = { step in
      steps.withLock { $0.append(step) }
      switch step {
      case .claimed(_, byHelper: false):
        helper.signal()
        loader.wait()
      case .claimed(_, byHelper: true):
        loader.signal()
        helper.wait()
      case .waitingForHelper:
        helper.signal()
      }
    }
    let set = decoded(sharing)
    #expect(set == alone)
    #expect(
      steps.withLock { $0 } == [
        .claimed(0, byHelper: false), .claimed(5, byHelper: true), .claimed(1, byHelper: false),
        .claimed(4, byHelper: true), .claimed(2, byHelper: false), .claimed(3, byHelper: true),
        .waitingForHelper,
      ])
  }

  /// The helper holds its first chunk until the loading thread has claimed every other one
  /// and waits for it.
  @Test func theLoadingThreadWaitsForTheHelpersChunkInFlight() {
    let (claimed, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let steps = Locked<[ChunkBoard.Step]>([])
    var sharing = FileSharing()
    sharing.startHelper = { work in DetachedThread.start(name: "apiary-test-helper", work) }
    sharing.observe = { step in
      switch step {
      case .claimed(0, byHelper: false):
        claimed.wait()
      case .claimed(_, byHelper: true):
        steps.withLock { $0.append(step) }
        claimed.signal()
        release.wait()
      case .waitingForHelper:
        steps.withLock { $0.append(step) }
        release.signal()
      case .claimed:
        break
      }
    }
    #expect(decoded(sharing) == alone)
    #expect(steps.withLock { $0 } == [.claimed(5, byHelper: true), .waitingForHelper])
  }

  /// A helper that runs before the loading thread claims anything takes every chunk, from the
  /// last; the loading thread decodes none and joins them all.
  @Test func aHelperThatRunsFirstTakesEveryChunk() {
    let steps = Locked<[ChunkBoard.Step]>([])
    var sharing = FileSharing()
    sharing.startHelper = { work in work() }
    sharing.observe = { step in steps.withLock { $0.append(step) } }
    #expect(decoded(sharing) == alone)
    #expect(steps.withLock { $0 } == (0..<6).reversed().map { .claimed($0, byHelper: true) })
  }

  /// A helper that starts only after the loading thread took every chunk claims none, and the
  /// loading thread does not wait for it.
  @Test func aHelperThatStartsLateClaimsNothing() {
    let late = Locked<(@Sendable () -> Void)?>(nil)
    let steps = Locked<[ChunkBoard.Step]>([])
    var sharing = FileSharing()
    sharing.startHelper = { work in late.withLock { $0 = work } }
    sharing.observe = { step in steps.withLock { $0.append(step) } }
    #expect(decoded(sharing) == alone)
    late.withLock { $0 }?()
    #expect(steps.withLock { $0 } == (0..<6).map { .claimed($0, byHelper: false) })
  }

  /// Automatically, at least 256 files on more than one core are shared, in chunks of 64.
  @Test func manyFilesOnSeveralCoresAreShared() {
    var sharing = FileSharing()
    sharing.cores = 2
    #expect(sharing.chunks(for: 255) == nil)
    #expect(sharing.chunks(for: 256) == [0..<64, 64..<128, 128..<192, 192..<256])
    #expect(sharing.chunks(for: 300)?.last == 256..<300)
    sharing.cores = 1
    #expect(sharing.chunks(for: 10_000) == nil)
  }

  /// The cores counted are the ones the process may run on, as `nproc` counts them: pinned to
  /// one (`taskset -c 0`), it reads on one thread, whatever the machine has.
  @Test func aProcessPinnedToOneCoreReadsOnOneThread() throws {
    typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer?) -> Int32
    let get = try #require(
      dlsym(nil, "sched_getaffinity").map { unsafeBitCast($0, to: Affinity.self) })
    let set = try #require(
      dlsym(nil, "sched_setaffinity").map { unsafeBitCast($0, to: Affinity.self) })
    var saved = [UInt8](repeating: 0, count: 128)
    #expect(saved.withUnsafeMutableBytes { get(0, $0.count, $0.baseAddress) } == 0)
    let allowed = saved.reduce(0) { $0 + $1.nonzeroBitCount }
    #expect(FileSharing.usableCores() == allowed)
    // The first core allowed, alone, for this thread; the mask is put back before returning.
    let byte = try #require(saved.firstIndex { $0 != 0 })
    var one = [UInt8](repeating: 0, count: 128)
    one[byte] = saved[byte] & (~saved[byte] &+ 1)
    #expect(one.withUnsafeMutableBytes { set(0, $0.count, $0.baseAddress) } == 0)
    let pinned = FileSharing.usableCores()
    #expect(saved.withUnsafeMutableBytes { set(0, $0.count, $0.baseAddress) } == 0)
    #expect(pinned == 1)
    var sharing = FileSharing()
    sharing.cores = pinned
    #expect(sharing.chunks(for: 10_000) == nil)
  }

  /// Loading a directory of 300 module files, which two cores share, reports every problem at
  /// its place and in file order, as one thread would.
  @Test func aLargeDirectoryLoadsAsOneThreadWould() throws {
    let directory = try ManifestDirectory()
    try directory.write("app.json", #"{"schemaVersion": 1, "name": "N", "scheme": "n"}"#)
    for index in 0..<300 {
      let name = String(format: "m%03d", index)
      let text =
        switch index {
        case 7, 150, 299: #"{"schemaVersion": 1, "modules": [{"name": "\#(name)", "tipe": "T.M"}]}"#
        case 151: #"{"schemaVersion": 1, "modules": ["#
        default: moduleFile(#"{"name": "\#(name)", "type": "T.M"}"#)
        }
      try directory.write("modules/\(name).json", text)
    }
    let set = ManifestLoader().loadUnvalidated(directory: directory.path)
    var problems: [ManifestProblem] = []
    var one = ModuleFiles(
      directory: "\(directory.path)/modules",
      files: ManifestLoader.moduleFiles(
        at: "\(directory.path)/modules", SourceLocation(file: directory.path), &problems))
    one.sharing.cores = 1
    var alone = ManifestSet()
    one.decode(.default, inside: nil, into: &alone)
    #expect(set.modules == alone.modules)
    #expect(set.problems == alone.problems)
    #expect(set.modules.count == 296)
    #expect(
      set.problems.map {
        "\(($0.location.file as NSString).lastPathComponent):\($0.location.line ?? 0)"
      }
        == [
          "m007.json:1", "m007.json:1", "m150.json:1", "m150.json:1", "m151.json:1",
          "m299.json:1", "m299.json:1",
        ])
  }
}
