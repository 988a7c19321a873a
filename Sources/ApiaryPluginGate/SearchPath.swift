/// Where the dynamic loader looks for a library's `DT_NEEDED` names, as `ld.so` does for the
/// parts a plugin controls: a name with a slash is a path; otherwise the library's `DT_RUNPATH`,
/// or, when it has none, its `DT_RPATH` and then those of the libraries that loaded it.
/// `$ORIGIN` (or `${ORIGIN}`) is the directory of the library that asks. `LD_LIBRARY_PATH`, the
/// loader cache and the system directories are not searched: libraries found there are never
/// contract libraries that a plugin ships.
struct SearchPath {
  /// Directories as the loader searches them and as a library wrote them (`$ORIGIN` unexpanded),
  /// position for position. Two arrays of strings, not one of a struct: each array type new to a
  /// process costs a metadata instantiation there (BENCHMARKS.md, "Plugins").
  struct Directories {
    var paths: [String] = []
    var written: [String] = []
  }

  /// The directories searched, in order: the library's own, then those it inherited.
  let directories: Directories
  /// How many of ``directories`` are the library's own, and the entry they come from.
  private let ownCount: Int
  private let ownTag: String
  /// The `DT_RPATH` directories a library loaded by this one inherits.
  let inherited: Directories

  init(for library: LibraryFacts, inherited: Directories) {
    let origin = Self.directory(of: library.path)
    let runpath = library.runpath
    let ownTag = runpath.isEmpty ? "RPATH" : "RUNPATH"
    var own = Directories()
    for written in runpath.isEmpty ? library.rpath : runpath where !written.isEmpty {
      own.paths.append(Self.expand(written, origin: origin))
      own.written.append(written)
    }
    (ownCount, self.ownTag) = (own.paths.count, ownTag)
    if runpath.isEmpty {
      own.paths += inherited.paths
      own.written += inherited.written
      (directories, self.inherited) = (own, own)
    } else {
      (directories, self.inherited) = (own, inherited)
    }
  }

  /// The files to try for `name`, in order (paths only: an array of tuples would cost a
  /// metadata instantiation in a fresh process; ``how(_:for:)`` says how one was found).
  func candidates(for name: String) -> [String] {
    if name.utf8.contains(0x2f) { return [name] }  // "/"
    return directories.paths.map { path in
      path + (path.utf8.last == 0x2f ? "" : "/") + name
    }
  }

  /// How candidate `index` for `name` was found, for messages: `RUNPATH '$ORIGIN' = '/p'`.
  func how(_ index: Int, for name: String) -> String {
    guard !name.utf8.contains(0x2f), index < directories.paths.count else { return "a path" }
    let (path, written) = (directories.paths[index], directories.written[index])
    let tagged = (index < ownCount ? ownTag : "RPATH") + " '" + written + "'"
    return written == path ? tagged : tagged + " = '" + path + "'"
  }

  /// `entry` with each `$ORIGIN` and `${ORIGIN}` replaced by `origin`. Searched as bytes, as are
  /// the paths here: `Character` searches, `split` and `starts(with:)` across two collection types
  /// each ran code that a fresh process pays page faults and first calls for, about 20 µs of the
  /// first contract library's search (BENCHMARKS.md, "Plugins").
  static func expand(_ entry: String, origin: String) -> String {
    guard entry.utf8.contains(0x24) else { return entry }  // no "$"
    if entry == "$ORIGIN" || entry == "${ORIGIN}" { return origin }  // the usual entry
    var entry = entry
    return entry.withUTF8 { bytes in
      func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
      }
      /// The length of the `$ORIGIN` or `${ORIGIN}` at `index`, or 0.
      func originLength(at index: Int) -> Int {
        func spells(_ spelling: StaticString) -> Bool {
          let count = spelling.utf8CodeUnitCount
          return bytes.count - index >= count
            && bytes[index..<index + count].elementsEqual(
              UnsafeBufferPointer(start: spelling.utf8Start, count: count))
        }
        return spells("$ORIGIN") ? 7 : spells("${ORIGIN}") ? 9 : 0
      }
      var (result, copied, index) = ("", 0, 0)
      while index < bytes.count {
        let length = originLength(at: index)
        guard length > 0 else {
          index += 1
          continue
        }
        result += text(copied..<index) + origin
        index += length
        copied = index
      }
      return result + text(copied..<bytes.count)
    }
  }

  /// `/a/b` for `/a/b/libX.so`, `/` for `/libX.so`, `.` for `libX.so`. Decoded from the bytes,
  /// not made through `Substring`, which can be the first of a process (about 11 µs).
  static func directory(of path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: 0x2f) else { return "." }
    return slash == path.utf8.startIndex
      ? "/" : String(decoding: path.utf8[..<slash], as: UTF8.self)
  }
}
