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
  static let dynamicSymbolType: UInt32 = 11  // SHT_DYNSYM
  static let dynamicType: UInt32 = 6  // SHT_DYNAMIC
  static let stringTableType: UInt32 = 3  // SHT_STRTAB

  let file: ByteFile
  let type: UInt16
  let machine: ELFMachine
  /// The section header table as read, `sectionCount` records of 64 bytes, decoded on use: an
  /// array of ``Section`` would cost a generic metadata instantiation in a fresh process.
  let table: ArraySlice<UInt8>
  let sectionCount: Int
  /// The section name table (`e_shstrndx`), empty when there is none.
  let names: ArraySlice<UInt8>
  /// The header indices of the first `apiary_plugin`, `SHT_DYNSYM` and `SHT_DYNAMIC` sections,
  /// -1 for none: the sections the gate reads, found in one pass.
  let descriptor: Int
  let dynamicSymbols: Int
  let dynamic: Int

  init(_ file: ByteFile) throws(PluginProblem) {
    self.file = file
    let ident = try file.read(offset: 0, count: min(file.size, 16))
    guard ident.starts(with: [0x7f, 0x45, 0x4c, 0x46]) else {
      throw PluginProblem(
        .notELF, file: file.path, expected: "an ELF shared library (starting with \\x7fELF)",
        found: Self.describeStart(ident),
        hint:
          "a plugin library is the .so file that 'swift build' writes to .build/<configuration>/")
    }
    guard ident.count == 16 else { throw Self.truncated(file) }
    guard ident.u8(4) == 2 else {
      throw PluginProblem(
        .notELF, file: file.path, field: "EI_CLASS", expected: "ELFCLASS64 (2)",
        found: ident.u8(4) == 1 ? "ELFCLASS32 (1): a 32-bit library" : "\(ident.u8(4))",
        hint: "rebuild the plugin for this 64-bit host")
    }
    guard ident.u8(5) == 1 else {
      throw PluginProblem(
        .notELF, file: file.path, field: "EI_DATA", expected: "ELFDATA2LSB (1, little-endian)",
        found: ident.u8(5) == 2 ? "ELFDATA2MSB (2, big-endian)" : "\(ident.u8(5))",
        hint: "rebuild the plugin for this host's processor")
    }
    guard file.size >= 64 else { throw Self.truncated(file) }
    let header = try file.read(offset: 0, count: 64, what: "ELF header")
    type = header.u16(16)
    machine = ELFMachine(rawValue: header.u16(18))
    (table, sectionCount, names) = try Self.readSections(file, header: header)
    var found = (descriptor: -1, dynamicSymbols: -1, dynamic: -1)
    for index in 0..<sectionCount {
      let base = index * 64
      let type = table.u32(base + 4)
      if type == Self.dynamicSymbolType && found.dynamicSymbols < 0 { found.dynamicSymbols = index }
      if type == Self.dynamicType && found.dynamic < 0 { found.dynamic = index }
      let name = Int(table.u32(base))
      if found.descriptor < 0 && names.hasCString(PluginDescriptor.sectionName, at: name) {
        found.descriptor = index
      }
    }
    (descriptor, dynamicSymbols, dynamic) = found
  }

  /// Section header `index` (below ``sectionCount``).
  func section(_ index: Int) -> Section {
    Self.section(index, in: table)
  }

  /// The name of `section`.
  func name(of section: Section) -> String { names.cString(at: section.nameOffset) }

  /// The bytes of `section` (empty for `SHT_NOBITS`).
  func contents(of section: Section) throws(PluginProblem) -> ArraySlice<UInt8> {
    guard section.type != Self.noBits else { return [] }
    return try file.read(
      offset: section.offset, count: section.size,
      what: "section '\(name(of: section).isEmpty ? "(unnamed)" : name(of: section))'")
  }

  /// Reads `first` and the string table `second` (an index below ``sectionCount``) by one read
  /// when `second` starts where `first` ends, as `.dynstr` follows `.dynsym`: for a file not read
  /// whole, a system call and an array fewer (BENCHMARKS.md, "Plugins"). Returns false, having
  /// read nothing, unless both are string-table-linked contents inside the file and the read
  /// succeeded; then ``contents(of:)`` and ``strings(at:for:)`` read them, with their problems.
  func readAdjacent(
    _ first: Section, _ second: Int, into firstBytes: inout ArraySlice<UInt8>,
    _ secondBytes: inout ArraySlice<UInt8>
  ) -> Bool {
    guard second > 0, second < sectionCount else { return false }
    let strings = section(second)
    guard first.type != Self.noBits, strings.type == Self.stringTableType,
      first.offset >= 0, first.size >= 0, first.size <= file.size - first.offset,
      strings.offset == first.offset + first.size, strings.size >= 0,
      strings.size <= file.size - strings.offset,
      first.size + strings.size <= ByteFile.maximumRead
    else { return false }
    let both: ArraySlice<UInt8>
    do {
      both = try file.read(offset: first.offset, count: first.size + strings.size)
    } catch {
      return false
    }
    let split = both.startIndex + first.size
    firstBytes = both[..<split]
    secondBytes = both[split...]
    return true
  }

  /// The bytes of section `index`, nil for -1 (no such section).
  func contents(ofSection index: Int) throws(PluginProblem) -> ArraySlice<UInt8>? {
    index < 0 ? nil : try contents(of: section(index))
  }

  /// The contents of the string table at `index`, as a section's `sh_link` names it.
  func strings(at index: Int, for owner: Section) throws(PluginProblem) -> ArraySlice<UInt8> {
    guard index > 0, index < sectionCount, section(index).type == Self.stringTableType else {
      throw PluginProblem(
        .malformedELF, file: file.path, field: "sh_link of \(name(of: owner))",
        expected: "the index of a string table (SHT_STRTAB)", found: "\(index)")
    }
    return try contents(of: section(index))
  }

  private static func section(_ index: Int, in table: ArraySlice<UInt8>) -> Section {
    let base = index * 64
    return Section(
      nameOffset: Int(table.u32(base)), type: table.u32(base + 4),
      offset: Int(exactly: table.u64(base + 24)) ?? Int.max,
      size: Int(exactly: table.u64(base + 32)) ?? Int.max, link: Int(table.u32(base + 40)),
      entrySize: Int(exactly: table.u64(base + 56)) ?? Int.max)
  }

  private static func readSections(_ file: ByteFile, header: ArraySlice<UInt8>)
    throws(PluginProblem)
    -> (table: ArraySlice<UInt8>, count: Int, names: ArraySlice<UInt8>)
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

  /// The problem of a file that starts like ELF but ends inside the 64-byte header.
  private static func truncated(_ file: ByteFile) -> PluginProblem {
    PluginProblem(
      .malformedELF, file: file.path, field: "ELF header", expected: "64 bytes",
      found: "a file of \(file.size) bytes (truncated?)")
  }

  /// `an empty file`, `text starting with "hello"`, or `bytes 00 01 02 03`.
  private static func describeStart(_ bytes: ArraySlice<UInt8>) -> String {
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

/// Bytes of a file or of one of its sections, read at offsets from the slice's start (not at its
/// indices, which are the whole file's), every read bounded by the slice.
extension ArraySlice<UInt8> {
  /// Little-endian integers at `offset`; 0 past the end (callers read sized records).
  func u8(_ offset: Int) -> UInt8 { load(offset, as: UInt8.self) }
  func u16(_ offset: Int) -> UInt16 { UInt16(littleEndian: load(offset, as: UInt16.self)) }
  func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: load(offset, as: UInt32.self)) }
  func u64(_ offset: Int) -> UInt64 { UInt64(littleEndian: load(offset, as: UInt64.self)) }

  private func load<Value: FixedWidthInteger>(_ offset: Int, as: Value.Type) -> Value {
    guard offset >= 0, offset <= count - MemoryLayout<Value>.size else { return 0 }
    return withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Value.self) }
  }

  /// The bytes of the NUL-terminated string at `offset` (to the end if unterminated; empty if
  /// outside).
  func cStringBytes(at offset: Int) -> ArraySlice<UInt8> {
    guard offset >= 0, offset < count else { return [] }
    let start = startIndex + offset
    return self[start..<(firstIndex(of: 0, in: start..<endIndex) ?? endIndex)]
  }

  /// The NUL-terminated string at `offset` (to the end if unterminated; empty if outside).
  func cString(at offset: Int) -> String {
    String(decoding: cStringBytes(at: offset), as: UTF8.self)
  }

  /// Whether the NUL-terminated string at `offset` is `name`.
  func hasCString(_ name: String, at offset: Int) -> Bool {
    let length = name.utf8.count
    return offset >= 0 && offset < count - length && u8(offset + length) == 0
      && self[(startIndex + offset)...].starts(with: name.utf8)
  }

  /// The first index of `byte` in `range` (indices, clamped to the slice's), found by `memchr`:
  /// the gate's scans for line ends and string ends, a byte at a time otherwise.
  func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
    let range = range.clamped(to: indices)
    return withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress, !range.isEmpty else { return nil }
      let from = range.lowerBound - startIndex
      return memchr(base + from, Int32(byte), range.count).map {
        startIndex + UnsafeRawPointer(base).distance(to: $0)
      }
    }
  }
}
