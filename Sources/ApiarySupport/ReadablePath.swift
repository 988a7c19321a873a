#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A path as a message shows it: without `.` components, repeated slashes and `dir/..` pairs,
/// but only when that shorter path names the same file (the same device and inode, or, for a
/// file that is not there, the same directory). `a/link/..` is not `a` when `link` is a symbolic
/// link, so a path whose `..` cannot be checked is shown as it is. Only for text: the host keeps
/// opening the path as given.
///
/// ```swift
/// ReadablePath.of("Manifests/modules/../../Plugins/libX.so")  // "Plugins/libX.so"
/// ```
package enum ReadablePath {
  package static func of(_ path: String) -> String {
    let normal = normalized(path)
    guard normal != path else { return path }
    if let same = sameFile(path, normal) { return same ? normal : path }
    // Not there: the same name in the same directory is the same path.
    guard let last = path.split(separator: "/").last, last != ".", last != "..",
      !path.hasSuffix("/"), sameFile(parent(path), parent(normal)) == true
    else { return path }
    return normal
  }

  /// `path` without `.` and empty components and with `..` applied, by its text alone
  /// (symbolic links are not resolved): `a/./b//../c` is `a/c`; a leading `..` stays.
  package static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/") where part != "." {
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
      } else {
        parts.append(part)
      }
    }
    // Appended one by one: `joined(separator:)` over substrings is generic code that asks the
    // runtime for a conformance, a search of every conformance in the process the first time.
    var joined = path.hasPrefix("/") ? "/" : ""
    for (index, part) in parts.enumerated() {
      if index > 0 { joined.append("/") }
      joined.append(contentsOf: part)
    }
    return joined
  }

  /// The directory `path` is in, by its text (`.` for a bare name).
  private static func parent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Whether `a` and `b` name one file, following symbolic links; nil when either is not there.
  private static func sameFile(_ a: String, _ b: String) -> Bool? {
    var first = stat()
    var second = stat()
    guard stat(a, &first) == 0, stat(b, &second) == 0 else { return nil }
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino
  }
}
