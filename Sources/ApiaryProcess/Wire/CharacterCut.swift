/// Where to cut UTF-8 bytes short so that no character is cut in two: a child's long line
/// handed over in pieces, a malformed frame header quoted by its start.
///
/// ```swift
/// let end = CharacterCut.index(40, in: line)   // 40, or up to 3 before it
/// ```
enum CharacterCut {
  /// `index`, moved back to the start of the UTF-8 sequence it falls inside, over at most 3
  /// continuation bytes (a scalar is at most 4 bytes): bytes that are not UTF-8 (a run of
  /// continuation bytes) are cut at most 3 bytes early, and never before the first.
  static func index(_ index: Int, in bytes: [UInt8]) -> Int {
    var cut = index
    while cut > max(index - 3, 0), cut < bytes.count, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
    return cut
  }
}
