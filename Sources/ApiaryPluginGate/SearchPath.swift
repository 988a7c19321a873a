/// Where the dynamic loader looks for a library's `DT_NEEDED` names, as `ld.so` does for the
/// parts a plugin controls: a name with a slash is a path; otherwise the library's `DT_RUNPATH`,
/// or, when it has none, its `DT_RPATH` and then those of the libraries that loaded it.
/// `$ORIGIN` (or `${ORIGIN}`) is the directory of the library that asks. `LD_LIBRARY_PATH`, the
/// loader cache and the system directories are not searched: libraries found there are never
/// contract libraries that a plugin ships.
struct SearchPath {
  /// One directory and the entry that produced it, for messages.
  struct Directory {
    let path: String
    let written: String
    let tag: String
  }

  let directories: [Directory]
  /// The `DT_RPATH` directories a library loaded by this one inherits.
  let inherited: [Directory]

  init(for image: ELFImage, inherited: [Directory]) {
    let origin = Self.directory(of: image.path)
    func expand(_ entries: [String], tag: String) -> [Directory] {
      entries.filter { !$0.isEmpty }.map { written in
        Directory(path: Self.expand(written, origin: origin), written: written, tag: tag)
      }
    }
    if image.runpath.isEmpty {
      let own = expand(image.rpath, tag: "RPATH")
      directories = own + inherited
      self.inherited = own + inherited
    } else {
      directories = expand(image.runpath, tag: "RUNPATH")
      self.inherited = inherited
    }
  }

  /// The files to try for `name`, in order (paths only: an array of tuples would cost a
  /// metadata instantiation in a fresh process; ``how(_:for:)`` says how one was found).
  func candidates(for name: String) -> [String] {
    if name.contains("/") { return [name] }
    return directories.map { directory in
      directory.path + (directory.path.hasSuffix("/") ? "" : "/") + name
    }
  }

  /// How candidate `index` for `name` was found, for messages: `RUNPATH '$ORIGIN' = '/p'`.
  func how(_ index: Int, for name: String) -> String {
    guard !name.contains("/"), index < directories.count else { return "a path" }
    let directory = directories[index]
    return directory.written == directory.path
      ? "\(directory.tag) '\(directory.written)'"
      : "\(directory.tag) '\(directory.written)' = '\(directory.path)'"
  }

  /// `entry` with each `$ORIGIN` and `${ORIGIN}` replaced by `origin`.
  static func expand(_ entry: String, origin: String) -> String {
    guard entry.utf8.contains(0x24) else { return entry }  // no "$"
    let bytes = Array(entry.utf8)
    var result: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let rest = bytes[index...]
      if rest.starts(with: "$ORIGIN".utf8) {
        result += origin.utf8
        index += 7
      } else if rest.starts(with: "${ORIGIN}".utf8) {
        result += origin.utf8
        index += 9
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// `/a/b` for `/a/b/libX.so`, `/` for `/libX.so`, `.` for `libX.so`.
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}
