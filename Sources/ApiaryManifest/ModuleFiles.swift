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
/// modules repeat shared across the files (``RepeatedValues``). Many files are shared with a
/// helper thread (``FileSharing``) and joined back in file order.
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
  /// Whether and how the files are shared with a helper thread.
  var sharing = FileSharing.automatic

  /// Appends the modules and problems of every file, in file order, to `set`: the loading
  /// thread's files straight into it, then, when they are shared, the helper's chunks.
  func decode(_ limits: ManifestLimits, inside root: String?, into set: inout ManifestSet) {
    let listing = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    // The helper uses `listing` only while it decodes a chunk, which is finished before this
    // returns (``ChunkBoard/helperParts()``).
    defer { if listing >= 0 { close(listing) } }
    set.modules.reserveCapacity(set.modules.count + files.count)
    guard let chunks = sharing.chunks(for: files.count) else {
      var reader = Reader()
      reader.decode(files[...], listing, limits, root, into: &set)
      return
    }
    let board = ChunkBoard(chunks: chunks.count, observe: sharing.observe)
    sharing.startHelper { [files] in
      var reader = Reader()
      while let chunk = board.claimBack() {
        var part = ManifestSet()
        reader.decode(files[chunks[chunk]], listing, limits, root, into: &part)
        board.finished(part)
      }
    }
    var reader = Reader()
    while let chunk = board.claimFront() {
      reader.decode(files[chunks[chunk]], listing, limits, root, into: &set)
    }
    for part in board.helperParts() {
      set.modules += part.modules
      set.problems += part.problems
    }
  }

  /// What one thread reads files with: its buffer, reused from file to file, and the values
  /// its modules repeat.
  private struct Reader {
    var buffer: [UInt8] = []
    let repeated = RepeatedValues()

    /// Appends the modules and problems of `files`, in order, to `set`; `listing` is their
    /// directory's descriptor (or -1).
    mutating func decode(
      _ files: ArraySlice<File>, _ listing: Int32, _ limits: ManifestLimits, _ root: String?,
      into set: inout ManifestSet
    ) {
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
}
