import ApiarySupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The module files one `modules` entry of the application manifest stands for, read and
/// decoded in file order: each file opened relative to its directory (the kernel then looks up
/// one name, not the whole path) and read into one buffer reused from file to file, the values
/// modules repeat shared across the files (``RepeatedValues``).
///
/// ```swift
/// var set = ManifestSet()
/// let file = ModuleFiles.File(path: "Manifests/modules/a.json", name: "a.json", isRegular: true)
/// ModuleFiles(directory: "Manifests/modules", files: [file]).decode(.default, inside: nil, into: &set)
/// ```
struct ModuleFiles: Sendable {
  /// One module file: its path, its name in ``directory`` when it was listed from it (nil for
  /// a file named by itself), and whether the listing said it is a regular file (which spares
  /// asking the file before reading it).
  struct File: Sendable {
    var path: String
    var name: String?
    var isRegular = false
  }

  /// The directory the files are in, and the files.
  let directory: String
  let files: [File]

  /// Appends the modules and problems of every file, in file order, to `set` (one set for
  /// all the files, rather than one each to be joined).
  func decode(_ limits: ManifestLimits, inside root: String?, into set: inout ManifestSet) {
    let listing = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    defer { if listing >= 0 { close(listing) } }
    var buffer: [UInt8] = []
    let repeated = RepeatedValues()
    set.modules.reserveCapacity(set.modules.count + files.count)
    for file in files {
      let at = listing >= 0 ? file.name.map { (listing, $0) } : nil
      do {
        let count = try ManifestLoader.contents(
          of: file.path, at: at, isRegular: file.isRegular, limits: limits, inside: root,
          into: &buffer)
        buffer.withUnsafeBytes { bytes in
          ManifestLoader.decodeModules(
            UnsafeRawBufferPointer(rebasing: bytes[..<count]), file: file.path, limits: limits,
            repeated: repeated, into: &set)
        }
      } catch {
        set.problems.append(error)
      }
    }
  }
}
