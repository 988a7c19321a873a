#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `.dynsym` table and its string table, read without copying names until asked.
struct DynamicSymbols: Sendable {
  let entries: ArraySlice<UInt8>
  let strings: ArraySlice<UInt8>

  /// Calls `body` with the name bytes of each global or weak symbol defined here (`defined`) or
  /// left to other libraries (not `defined`); the others' names are not looked at.
  func forEachSymbol(defined: Bool, _ body: (ArraySlice<UInt8>) -> Void) {
    // Entry 0 is the null symbol. Each entry: st_name u32, st_info u8, st_other u8,
    // st_shndx u16, st_value u64, st_size u64.
    strings.withUnsafeBytes { text in
      guard let first = text.baseAddress else { return }
      for base in stride(from: 24, to: entries.count - 23, by: 24) {
        // GLOBAL, WEAK or UNIQUE
        let binding = entries.u8(base + 4) >> 4
        guard binding == 1 || binding == 2 || binding == 10,
          (entries.u16(base + 6) != 0) == defined  // st_shndx 0: undefined
        else { continue }
        let start = Int(entries.u32(base))
        guard start < text.count else { continue }
        // memchr, not a byte loop: the names are most of what a scan reads.
        let end = memchr(first + start, 0, text.count - start).map { first.distance(to: $0) }
        body(strings[(strings.startIndex + start)..<(strings.startIndex + (end ?? text.count))])
      }
    }
  }

  func names(defined wanted: Bool) -> [String] {
    var names: [String] = []
    forEachSymbol(defined: wanted) { names.append(String(decoding: $0, as: UTF8.self)) }
    return names
  }
}
