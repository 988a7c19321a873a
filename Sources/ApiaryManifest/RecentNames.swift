/// The last few distinct type names read while loading, so the many modules, services and
/// targets that name the same few types share one copy of each name: one allocation, and one
/// place in memory for the checks that read the names afterwards, instead of one each.
///
/// ```swift
/// var names = RecentNames()
/// var text = "ApiaryBench.QuietModule"
/// let first = text.withUTF8 { names.name($0) }
/// let second = text.withUTF8 { names.name($0) }  // the same copy as `first`
/// ```
struct RecentNames: Sendable {
  /// At most this many names are kept; a new one replaces the oldest.
  static let capacity = 8
  private var names: [String] = []
  private var oldest = 0

  /// The name spelt by the ASCII bytes `utf8`: a kept copy when there is one.
  mutating func name(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
    for name in names where name.utf8.count == utf8.count {
      let equal = name.utf8.withContiguousStorageIfAvailable { kept in
        (0..<kept.count).allSatisfy { kept[$0] == utf8[$0] }
      }
      if equal ?? name.utf8.elementsEqual(utf8) { return name }
    }
    let name = String(decoding: utf8, as: UTF8.self)
    if names.count < Self.capacity {
      names.append(name)
    } else {
      names[oldest] = name
      oldest = (oldest + 1) % Self.capacity
    }
    return name
  }
}
