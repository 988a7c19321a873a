import ApiarySupport
import Foundation

/// The module files one `modules` entry of the application manifest stands for, read and
/// decoded in file order: each file opened relative to its directory (the kernel then looks up
/// one name, not the whole path) and read into one buffer reused from file to file.
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

  /// One ``ManifestSet`` a file, in file order.
  func decode(_ limits: ManifestLimits, inside root: String?) -> [ManifestSet] {
    let listing = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    defer { if listing >= 0 { close(listing) } }
    var buffer: [UInt8] = []
    var sets: [ManifestSet] = []
    sets.reserveCapacity(files.count)
    for (file, name) in files {
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
