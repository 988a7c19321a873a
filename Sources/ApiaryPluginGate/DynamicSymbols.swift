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

  /// Calls `body` with each global or weak symbol's name bytes and whether it is defined here.
  func forEachSymbol(_ body: (ArraySlice<UInt8>, Bool) -> Void) {
    // Entry 0 is the null symbol. Each entry: st_name u32, st_info u8, st_other u8,
    // st_shndx u16, st_value u64, st_size u64.
    strings.withUnsafeBytes { text in
      guard let first = text.baseAddress else { return }
      for base in stride(from: 24, to: entries.count - 23, by: 24) {
        // GLOBAL, WEAK or UNIQUE
        let binding = entries.u8(base + 4) >> 4
        guard binding == 1 || binding == 2 || binding == 10 else { continue }
        let start = Int(entries.u32(base))
        guard start < text.count else { continue }
        // memchr, not a byte loop: the names are most of what a scan reads.
        let end = memchr(first + start, 0, text.count - start).map { first.distance(to: $0) }
        body(
          strings[(strings.startIndex + start)..<(strings.startIndex + (end ?? text.count))],
          entries.u16(base + 6) != 0)
      }
    }
  }

  func names(defined wanted: Bool) -> [String] {
    var names: [String] = []
    forEachSymbol { name, defined in
      if defined == wanted { names.append(String(decoding: name, as: UTF8.self)) }
    }
    return names
  }
}
