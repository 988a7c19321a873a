import ApiarySupport
import Dispatch
import Foundation

/// The module files one `modules` entry of the application manifest stands for, read and
/// decoded in order: each file opened relative to its directory and read into one reused
/// buffer. A long list is split into contiguous runs, one a core, decoded at once; the runs are
/// joined back in file order, so modules and problems come out exactly as one pass would give
/// them.
///
/// ```swift
/// let sets = ModuleFiles(directory: "Manifests/modules", files: [("Manifests/modules/a.json", "a.json")])
///   .decode(.default, inside: nil)
/// ```
struct ModuleFiles: Sendable {
  /// The directory the files are in, and the files: each path, with its name in `directory`
  /// when it was listed from it (nil for a file named by itself).
  let directory: String
  let files: [(file: String, name: String?)]

  /// Files a run gets at least: below that, another thread costs more than it saves.
  static let filesPerRun = 64

  /// One ``ManifestSet`` a file, in file order. `runs` is how many runs to split the files
  /// into (by default one a core, each of at least ``filesPerRun`` files).
  func decode(_ limits: ManifestLimits, inside root: String?, runs: Int? = nil) -> [ManifestSet] {
    let runs = max(
      1,
      runs ?? min(ProcessInfo.processInfo.activeProcessorCount, files.count / Self.filesPerRun))
    guard runs > 1 else {
      return decode(files.indices, limits, root)
    }
    let decoded = Locked([[ManifestSet]](repeating: [], count: runs))
    DispatchQueue.concurrentPerform(iterations: runs) { run in
      let range = files.count * run / runs..<files.count * (run + 1) / runs
      let sets = decode(range, limits, root)
      decoded.withLock { $0[run] = sets }
    }
    return decoded.withLock { $0.flatMap { $0 } }
  }

  private func decode(_ range: Range<Int>, _ limits: ManifestLimits, _ root: String?)
    -> [ManifestSet]
  {
    let listing = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    defer { if listing >= 0 { close(listing) } }
    var buffer: [UInt8] = []
    var sets: [ManifestSet] = []
    sets.reserveCapacity(range.count)
    for (file, name) in files[range] {
      let at = listing >= 0 ? name.map { (listing, $0) } : nil
      switch ManifestLoader.contents(of: file, at: at, limits: limits, inside: root, into: &buffer)
      {
      case .failure(let problem):
        sets.append(ManifestSet(problems: [problem], files: [file]))
      case .success(let count):
        sets.append(
          buffer.withUnsafeBytes { bytes in
            ManifestLoader.decodeModules(
              UnsafeRawBufferPointer(rebasing: bytes[..<count]), file: file, limits: limits)
          })
      }
    }
    return sets
  }
}
