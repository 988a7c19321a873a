#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ELF64 little-endian file header and section header table of an open file, each field
/// checked against the file's size. Section contents are read only when asked for.
struct ELFLayout {
  /// One section header.
  struct Section {
    /// Where its name starts in the section name table.
    let nameOffset: Int
    let type: UInt32
    let offset: Int
    let size: Int
    let link: Int
    let entrySize: Int
  }

  static let sharedObjectType: UInt16 = 3
  static let noBits: UInt32 = 8

  let file: ByteFile
  let type: UInt16
  let machine: ELFMachine
  /// The section header table as read, `sectionCount` records of 64 bytes, decoded on use: an
  /// array of ``Section`` would cost a generic metadata instantiation in a fresh process.
  let table: [UInt8]
  let sectionCount: Int
  /// The section name table (`e_shstrndx`), empty when there is none.
  let names: [UInt8]

  init(_ file: ByteFile) throws(PluginProblem) {
    self.file = file
    let ident = try file.read(offset: 0, count: min(file.size, 16))
    guard ident.count == 16, ident[0..<4].elementsEqual([0x7f, 0x45, 0x4c, 0x46]) else {
      throw PluginProblem(
        .notELF, file: file.path, expected: "an ELF shared library (starting with \\x7fELF)",
        found: Self.describeStart(ident),
        hint:
          "a plugin library is the .so file that 'swift build' writes to .build/<configuration>/")
    }
    guard ident[4] == 2 else {
      throw PluginProblem(
        .notELF, file: file.path, field: "EI_CLASS", expected: "ELFCLASS64 (2)",
        found: ident[4] == 1 ? "ELFCLASS32 (1): a 32-bit library" : "\(ident[4])",
        hint: "rebuild the plugin for this 64-bit host")
    }
    guard ident[5] == 1 else {
      throw PluginProblem(
        .notELF, file: file.path, field: "EI_DATA", expected: "ELFDATA2LSB (1, little-endian)",
        found: ident[5] == 2 ? "ELFDATA2MSB (2, big-endian)" : "\(ident[5])",
        hint: "rebuild the plugin for this host's processor")
    }
    guard file.size >= 64 else {
      throw PluginProblem(
        .malformedELF, file: file.path, field: "ELF header", expected: "64 bytes",
        found: "a file of \(file.size) bytes (truncated?)")
    }
    let header = try file.read(offset: 0, count: 64, what: "ELF header")
    type = header.u16(16)
    machine = ELFMachine(rawValue: header.u16(18))
    (table, sectionCount, names) = try Self.readSections(file, header: header)
  }

  /// Section header `index` (below ``sectionCount``).
  func section(_ index: Int) -> Section {
    Self.section(index, in: table)
  }

  /// The first section whose header satisfies `matches`.
  func firstSection(where matches: (Section) -> Bool) -> Section? {
    for index in 0..<sectionCount where matches(section(index)) { return section(index) }
    return nil
  }

  /// The first section called `name`.
  func section(named name: String) -> Section? {
    let length = name.utf8.count
    return firstSection { section in
      section.nameOffset < names.count - length
        && names[section.nameOffset + length] == 0
        && names[section.nameOffset..<section.nameOffset + length].elementsEqual(name.utf8)
    }
  }

  /// The name of `section`.
  func name(of section: Section) -> String { names.cString(at: section.nameOffset) }

  /// The bytes of `section` (empty for `SHT_NOBITS`).
  func contents(of section: Section) throws(PluginProblem) -> [UInt8] {
    guard section.type != Self.noBits else { return [] }
    return try file.read(
      offset: section.offset, count: section.size,
      what: "section '\(name(of: section).isEmpty ? "(unnamed)" : name(of: section))'")
  }

  /// The contents of the string table at `index`, as a section's `sh_link` names it.
  func strings(at index: Int, for owner: Section) throws(PluginProblem) -> [UInt8] {
    guard index > 0, index < sectionCount, section(index).type == 3 else {
      throw PluginProblem(
        .malformedELF, file: file.path, field: "sh_link of \(name(of: owner))",
        expected: "the index of a string table (SHT_STRTAB)", found: "\(index)")
    }
    return try contents(of: section(index))
  }

  private static func section(_ index: Int, in table: [UInt8]) -> Section {
    let base = index * 64
    return Section(
      nameOffset: Int(table.u32(base)), type: table.u32(base + 4),
      offset: Int(exactly: table.u64(base + 24)) ?? Int.max,
      size: Int(exactly: table.u64(base + 32)) ?? Int.max, link: Int(table.u32(base + 40)),
      entrySize: Int(exactly: table.u64(base + 56)) ?? Int.max)
  }

  private static func readSections(_ file: ByteFile, header: [UInt8]) throws(PluginProblem)
    -> (table: [UInt8], count: Int, names: [UInt8])
  {
    let tableOffset = header.u64(40)
    guard tableOffset != 0 else { return ([], 0, []) }
    guard let offset = Int(exactly: tableOffset), offset <= file.size else {
      throw PluginProblem(
        .malformedELF, file: file.path, field: "e_shoff",
        expected: "an offset inside the file (\(file.size) bytes)", found: "\(tableOffset)")
    }
    let entrySize = Int(header.u16(58))
    guard entrySize == 64 else {
      throw PluginProblem(
        .malformedELF, file: file.path, field: "e_shentsize", expected: "64", found: "\(entrySize)")
    }
    var count = Int(header.u16(60))
    var namesIndex = Int(header.u16(62))
    if count == 0 || namesIndex == 0xffff {
      // Extended numbering: section 0 holds the real count (sh_size) and index (sh_link).
      let first = try file.read(offset: offset, count: 64, what: "section header 0")
      if count == 0 { count = Int(exactly: first.u64(32)) ?? Int.max }
      if namesIndex == 0xffff { namesIndex = Int(first.u32(40)) }
    }
    let room = (file.size - offset) / 64
    guard count <= room else {
      throw PluginProblem(
        .malformedELF, file: file.path, field: "e_shnum",
        expected: "at most \(room) section headers in the file's last \(file.size - offset) bytes",
        found: "\(count)")
    }
    let table = try file.read(offset: offset, count: count * 64, what: "section header table")
    guard namesIndex > 0 else { return (table, count, []) }
    guard namesIndex < count else {
      throw PluginProblem(
        .malformedELF, file: file.path, field: "e_shstrndx",
        expected: "a section index below \(count)", found: "\(namesIndex)")
    }
    let names = section(namesIndex, in: table)
    return (
      table, count,
      try file.read(offset: names.offset, count: names.size, what: "section name table")
    )
  }

  /// `an empty file`, `text starting with "hello"`, or `bytes 00 01 02 03`.
  private static func describeStart(_ bytes: [UInt8]) -> String {
    guard !bytes.isEmpty else { return "an empty file" }
    let prefix = bytes.prefix(12)
    if prefix.allSatisfy({ (0x20..<0x7f).contains($0) || $0 == 0x0a || $0 == 0x09 }) {
      let text = prefix.map { $0 == 0x0a ? "\\n" : $0 == 0x09 ? "\\t" : String(UnicodeScalar($0)) }
        .joined()
      return "text starting with \"\(text)\""
    }
    let hex = prefix.prefix(4).map { byte in
      let digits = Array("0123456789abcdef")
      return String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
    }
    return "bytes " + hex.joined(separator: " ")
  }
}

extension [UInt8] {
  /// Little-endian integers at `offset`; 0 past the end (callers read sized records).
  func u16(_ offset: Int) -> UInt16 { UInt16(truncatingIfNeeded: little(offset, 2)) }
  func u32(_ offset: Int) -> UInt32 { UInt32(truncatingIfNeeded: little(offset, 4)) }
  func u64(_ offset: Int) -> UInt64 { little(offset, 8) }

  private func little(_ offset: Int, _ width: Int) -> UInt64 {
    guard offset >= 0, offset <= count - width else { return 0 }
    var value: UInt64 = 0
    for index in (offset..<offset + width).reversed() { value = value << 8 | UInt64(self[index]) }
    return value
  }

  /// The NUL-terminated string at `offset` (to the end if unterminated; empty if outside).
  func cString(at offset: Int) -> String {
    guard offset >= 0, offset < count else { return "" }
    let end = firstIndex(of: 0, in: offset..<count) ?? count
    return String(decoding: self[offset..<end], as: UTF8.self)
  }

  /// The first position of `byte` in `range` (clamped to the array), found by `memchr`: the
  /// gate's scans for line ends and string ends, a byte at a time otherwise.
  func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
    let range = range.clamped(to: 0..<count)
    return withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress, !range.isEmpty else { return nil }
      return memchr(base + range.lowerBound, Int32(byte), range.count).map {
        UnsafeRawPointer(base).distance(to: $0)
      }
    }
  }
}
