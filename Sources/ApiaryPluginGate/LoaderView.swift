/// The parts of a library the dynamic loader reads before any of the library's code runs — the
/// program headers, the dynamic segment and the tables it points to — checked the way the
/// loader would use them: every segment inside the file, every table inside a loaded segment,
/// every relocation writing inside a writable one, every symbol, version and hash-chain index
/// inside its table, and the loader's tables the same as the sections the gate read. `ld.so`
/// trusts these fields; a damaged one crashes the process inside `dlopen`, so the gate refuses
/// the file first. Code and data bytes are beyond any such check: a manifest's `sha256` pins
/// them.
///
/// ```swift
/// try LoaderView.check(layout)  // throws a malformed-ELF PluginProblem naming the field
/// ```
struct LoaderView {
  private static let load: UInt32 = 1, dynamicSegment: UInt32 = 2, tls: UInt32 = 7
  private static let programHeaders: UInt32 = 6, stack: UInt32 = 0x6474_e551
  private static let relro: UInt32 = 0x6474_e552
  private static let writable: UInt32 = 2, executable: UInt32 = 1
  private static let hint = "the library is damaged; rebuild the plugin or restore its file"

  let file: ByteFile
  let machine: ELFMachine
  /// The program header table, 56 bytes a header, and its offset in the file.
  let headers: ArraySlice<UInt8>
  let headersOffset: Int
  /// Symbols in `.dynsym`, which the hash tables, versions and relocations index.
  let symbolCount: Int

  /// Checks `layout`'s loader view; throws the first problem found.
  static func check(_ layout: ELFLayout) throws(PluginProblem) {
    let file = layout.file
    let header = try file.read(offset: 0, count: 64, what: "ELF header")
    let (offset, size, count) = (header.u64(32), Int(header.u16(54)), Int(header.u16(56)))
    guard size == 56 else { throw problem(file, "e_phentsize", "56", "\(size)") }
    guard count > 0, let start = Int(exactly: offset), start <= file.size,
      count <= (file.size - start) / 56
    else {
      throw problem(
        file, "e_phoff, e_phnum", "program headers inside the file (\(file.size) bytes)",
        "\(count) at offset \(offset)")
    }
    let symbols =
      layout.dynamicSymbols < 0 ? 0 : layout.section(layout.dynamicSymbols).size / 24
    let view = LoaderView(
      file: file, machine: layout.machine,
      headers: try file.read(offset: start, count: count * 56, what: "program headers"),
      headersOffset: start, symbolCount: symbols)
    try view.checkSegments(layout)
  }

  // MARK: Segments

  private func field(_ index: Int, _ at: Int) -> UInt64 { headers.u64(index * 56 + at) }
  private func type(_ index: Int) -> UInt32 { headers.u32(index * 56) }
  private func flags(_ index: Int) -> UInt32 { headers.u32(index * 56 + 4) }
  private var headerCount: Int { headers.count / 56 }

  private func checkSegments(_ layout: ELFLayout) throws(PluginProblem) {
    var (loads, end, dynamic, tls): (Int, UInt64, Int, Int) = (0, 0, -1, -1)
    var (programHeaders, relro): (Int, Int) = (-1, -1)
    for index in 0..<headerCount {
      let (offset, address) = (field(index, 8), field(index, 16))
      let (fileSize, memorySize, align) = (field(index, 32), field(index, 40), field(index, 48))
      // Made only for a problem: the first plugin of a process pays for every new code path.
      func name() -> String { "program header \(index)" }
      guard offset <= UInt64(file.size), fileSize <= UInt64(file.size) - offset else {
        throw problem(
          "\(name()) p_offset, p_filesz", "a range inside the file (\(file.size) bytes)",
          "\(fileSize) bytes at offset \(offset)")
      }
      guard fileSize <= memorySize, address <= 1 << 47, memorySize <= 1 << 47 - address else {
        throw problem(
          "\(name()) p_vaddr, p_filesz, p_memsz", "p_filesz ≤ p_memsz inside the address space",
          "p_vaddr \(address), p_filesz \(fileSize), p_memsz \(memorySize)")
      }
      switch type(index) {
      case Self.load:
        guard align <= 1 || (align & (align - 1) == 0 && (address &- offset) % align == 0)
        else {
          throw problem(
            "\(name()) p_align", "a power of two that p_vaddr - p_offset is a multiple of",
            "\(align)")
        }
        guard address >= end else {
          throw problem(
            "\(name()) p_vaddr", "loadable segments in address order, apart",
            "\(address), below the end of the one before (\(end))")
        }
        (loads, end) = (loads + 1, address + memorySize)
      case Self.dynamicSegment:
        guard dynamic < 0 else {
          throw problem("\(name()) p_type", "one PT_DYNAMIC", "a second at header \(index)")
        }
        dynamic = index
      case Self.tls: tls = index
      case Self.programHeaders: programHeaders = index
      case Self.relro: relro = index
      case Self.stack where flags(index) & Self.executable != 0:
        throw PluginProblem(
          .incompatibleBuild, file: file.path, field: "PT_GNU_STACK p_flags",
          expected: "a stack that is not executable",
          found: "PF_X, which would make every thread's stack in the host executable",
          hint: "link the plugin with -z noexecstack, or find the object file that asks for an "
            + "executable stack: an assembly file without a .note.GNU-stack section")
      default: break
      }
    }
    guard loads > 0 else { throw problem("p_type", "a PT_LOAD segment", "none") }
    try checkSpecial(programHeaders: programHeaders, relro: relro)
    // Once every segment is known to be inside the file.
    if tls >= 0, field(tls, 32) > 0, offset(of: field(tls, 16), count: field(tls, 32)) == nil {
      throw problem(
        "program header \(tls) p_vaddr", "TLS data inside a loadable segment", "\(field(tls, 16))")
    }
    try checkDynamic(dynamic, layout)
  }

  /// The program headers the loader finds through `PT_PHDR` (it reads them from memory at that
  /// address), and the range `PT_GNU_RELRO` has it write-protect after relocating: both inside
  /// the library's own segments, or the loader reads or protects another library's memory.
  private func checkSpecial(programHeaders: Int, relro: Int) throws(PluginProblem) {
    if programHeaders >= 0 {
      let address = field(programHeaders, 16)
      guard offset(of: address, count: UInt64(headers.count)) == headersOffset else {
        throw problem(
          "PT_PHDR p_vaddr",
          "the address of the program headers (file offset \(headersOffset)) in a loadable segment",
          "\(address)")
      }
    }
    if relro >= 0 {
      let (address, size) = (field(relro, 16), field(relro, 40))
      guard size == 0 || maps(address, count: size, flags: Self.writable) else {
        throw problem(
          "PT_GNU_RELRO p_vaddr, p_memsz", "a range inside a writable loadable segment",
          "\(size) bytes at \(address)")
      }
    }
  }

  /// The file offset of `count` bytes at `address`, when a loadable segment holds them in the
  /// file.
  private func offset(of address: UInt64, count: UInt64) -> Int? {
    for index in 0..<headerCount where type(index) == Self.load {
      let (start, size) = (field(index, 16), field(index, 32))
      guard address >= start, address - start <= size, count <= size - (address - start)
      else { continue }
      return Int(exactly: field(index, 8) &+ (address - start))
    }
    return nil
  }

  /// Whether `count` bytes at `address` are in a loadable segment's memory with all of `flags`.
  private func maps(_ address: UInt64, count: UInt64, flags wanted: UInt32 = 0) -> Bool {
    for index in 0..<headerCount where type(index) == Self.load {
      let (start, size) = (field(index, 16), field(index, 40))
      if address >= start, address - start <= size, count <= size - (address - start),
        flags(index) & wanted == wanted
      {
        return true
      }
    }
    return false
  }

  /// `count` bytes at `address`, read from the file.
  private func bytes(_ address: UInt64, count: UInt64, _ what: String) throws(PluginProblem)
    -> ArraySlice<UInt8>
  {
    guard let start = offset(of: address, count: count), let count = Int(exactly: count) else {
      throw problem(what, "\(count) bytes inside a loadable segment", "address \(address)")
    }
    return try file.read(offset: start, count: count, what: what)
  }

  // MARK: The dynamic segment

  private func checkDynamic(_ index: Int, _ layout: ELFLayout) throws(PluginProblem) {
    guard index >= 0 else {
      throw problem("p_type", "a PT_DYNAMIC segment (a shared library has one)", "none")
    }
    let (address, size) = (field(index, 16), field(index, 32))
    let section = layout.dynamic < 0 ? nil : layout.section(layout.dynamic)
    guard let section, UInt64(section.offset) == field(index, 8),
      offset(of: address, count: size)
        == section.offset
    else {
      let mapped = offset(of: address, count: size).map { "file offset \($0)" } ?? "no file offset"
      throw problem(
        "PT_DYNAMIC", "the .dynamic section the gate reads, inside a loadable segment",
        "p_offset \(field(index, 8)), p_vaddr \(address) (\(mapped)); "
          + (section.map { ".dynamic at offset \($0.offset)" } ?? "no .dynamic section"))
    }
    let entries = try file.read(
      offset: section.offset, count: Int(clamping: size), what: "PT_DYNAMIC")
    var (tags, ended) = (DynamicTags(entries), false)
    for base in stride(from: 0, to: entries.count - 15, by: 16) {
      let tag = entries.u64(base)
      if tag == 0 {
        ended = true
        break
      }
      tags.set(tag, entries.u64(base + 8))
    }
    // The loader reads entries up to DT_NULL, past the segment's end if need be.
    guard ended else { throw problem("PT_DYNAMIC", "a DT_NULL entry ending it", "none") }
    try check(tags, layout)
  }

  private func check(_ tags: DynamicTags, _ layout: ELFLayout) throws(PluginProblem) {
    // The loader reads a table's size from the entry that goes with it, without checking that
    // there is one.
    if let (present, missing) = tags.unpaired() {
      throw problem(present, "\(missing) with it", "none")
    }
    if !tags.wrongSize.isEmpty {
      let (tag, expected, found) = (tags.wrongSize, tags.expectedSize, tags.foundSize)
      throw problem(
        tag, tag == "DT_REL" ? "no DT_REL (this machine's loader takes DT_RELA)" : "\(expected)",
        tag == "DT_REL" ? "DT_REL at \(found)" : "\(found)")
    }
    // Strings and symbols: the tables the gate read.
    let strings = try bytes(tags.strtab, count: tags.strsz, "DT_STRTAB, DT_STRSZ")
    let symbolSection = layout.dynamicSymbols < 0 ? nil : layout.section(layout.dynamicSymbols)
    guard let symbolSection, offset(of: tags.symtab, count: 24) == symbolSection.offset,
      offset(of: tags.strtab, count: 0) == layout.section(symbolSection.link).offset
    else {
      throw problem(
        "DT_SYMTAB, DT_STRTAB", "the addresses of the .dynsym and .dynstr sections",
        "\(tags.symtab), \(tags.strtab)")
    }
    try tags.forEachString { offset, _ throws(PluginProblem) in
      guard offset < UInt64(strings.count) else {
        throw problem("DT_NEEDED, DT_SONAME or DT_RUNPATH", "an offset below DT_STRSZ", "\(offset)")
      }
    }
    let symbols = try bytes(tags.symtab, count: UInt64(symbolCount) * 24, "DT_SYMTAB")
    for base in stride(from: 0, to: symbols.count, by: 24) {
      guard UInt64(symbols.u32(base)) < UInt64(strings.count) else {
        throw problem(
          "st_name of symbol \(base / 24)", "an offset below DT_STRSZ", "\(symbols.u32(base))")
      }
      let (section, value) = (symbols.u16(base + 6), symbols.u64(base + 8))
      // Defined, not absolute or common, not TLS (an offset in the TLS block).
      if section != 0, section < 0xff00, symbols.u8(base + 4) & 0xf != 6,
        !maps(value, count: 0)
      {
        throw problem(
          "st_value of symbol \(base / 24)", "an address in a loadable segment", "\(value)")
      }
    }
    try checkGNUHash(tags.gnuHash)
    try checkHash(tags.hash)
    try checkVersions(tags, strings: strings)
    let (kinds, jumpKinds) =
      machine == .aarch64
      ? (Self.aarch64Kinds, Self.aarch64JumpKinds) : (Self.x86Kinds, Self.x86JumpKinds)
    try checkRelocations(
      tags.rela, size: tags.relasz, "DT_RELA", relative: tags.relacount, kinds: kinds, tags)
    try checkRelocations(
      tags.jmprel, size: tags.pltrelsz, "DT_JMPREL", relative: 0, kinds: jumpKinds, tags)
    try checkRelative(tags.relr, size: tags.relrsz)
    try checkArray(tags.initArray, size: tags.initArraySize, "DT_INIT_ARRAY")
    try checkArray(tags.finiArray, size: tags.finiArraySize, "DT_FINI_ARRAY")
    try checkArray(tags.preinitArray, size: tags.preinitArraySize, "DT_PREINIT_ARRAY")
    try checkFunction(tags.initFunction, "DT_INIT")
    try checkFunction(tags.finiFunction, "DT_FINI")
  }

  private func checkArray(_ address: UInt64, size: UInt64, _ name: String) throws(PluginProblem) {
    guard size > 0 else { return }
    guard size % 8 == 0, maps(address, count: size) else {
      throw problem(
        name, "an array of pointers in a loadable segment", "\(size) bytes at \(address)")
    }
  }

  private func checkFunction(_ address: UInt64, _ name: String) throws(PluginProblem) {
    guard address == 0 || maps(address, count: 1, flags: Self.executable) else {
      throw problem(name, "an address in an executable segment", "\(address)")
    }
  }

  private func checkGNUHash(_ address: UInt64) throws(PluginProblem) {
    guard address != 0 else { return }
    let head = try bytes(address, count: 16, "DT_GNU_HASH")
    let (count, first, bloom) = (Int(head.u32(0)), Int(head.u32(4)), Int(head.u32(8)))
    guard count > 0, bloom > 0, bloom & (bloom - 1) == 0, first <= symbolCount else {
      throw problem(
        "DT_GNU_HASH", "buckets > 0, a power-of-two bloom size, symoffset ≤ \(symbolCount)",
        "\(count) buckets, bloom size \(bloom), symoffset \(first)")
    }
    let buckets = try bytes(
      address &+ 16 &+ UInt64(bloom) * 8, count: UInt64(count) * 4, "DT_GNU_HASH")
    var last = 0
    for bucket in 0..<count {
      let symbol = Int(buckets.u32(bucket * 4))
      guard symbol == 0 || (symbol >= first && symbol < symbolCount) else {
        throw problem(
          "DT_GNU_HASH bucket \(bucket)", "0 or a symbol index below \(symbolCount)", "\(symbol)")
      }
      last = max(last, symbol)
    }
    // A chain runs to a value with bit 0 set. The one from the last start ends at or after
    // every other's end, so it bounds every walk.
    guard last > 0 else { return }
    let chains = address &+ 16 &+ UInt64(bloom) * 8 &+ UInt64(count) * 4
    for symbol in last..<symbolCount {
      let value = try bytes(chains &+ UInt64(symbol - first) * 4, count: 4, "DT_GNU_HASH chain")
      if value.u32(0) & 1 == 1 { return }
    }
    throw problem("DT_GNU_HASH", "chains that end", "a chain running past the symbols")
  }

  /// Version definitions and needs, their names inside the strings, and every symbol's version
  /// index (`DT_VERSYM`) among them: the loader indexes its version table with it.
  private func checkVersions(_ tags: DynamicTags, strings: ArraySlice<UInt8>)
    throws(PluginProblem)
  {
    guard tags.verdef == 0 && tags.verneed == 0 || tags.versym != 0 else {
      throw problem("DT_VERSYM", "DT_VERSYM with DT_VERDEF or DT_VERNEED", "none")
    }
    var highest = 1
    try walk(tags.verdef, "DT_VERDEF", record: 20, next: 16) {
      definition, at throws(PluginProblem) in
      highest = max(highest, Int(definition.u16(4) & 0x7fff))
      try walk(
        at &+ UInt64(definition.u32(12)), "DT_VERDEF vd_aux", record: 8, next: 4
      ) { name, _ throws(PluginProblem) in try checkName(name.u32(0), tags, "vda_name") }
    }
    try walk(tags.verneed, "DT_VERNEED", record: 16, next: 12) {
      need, at throws(PluginProblem) in
      try checkName(need.u32(4), tags, "vn_file")
      let file = strings.cStringBytes(at: Int(need.u32(4)))
      var isNeeded = false
      try tags.forEachString { offset, needed throws(PluginProblem) in
        let name = strings.cStringBytes(at: Int(clamping: offset))
        isNeeded = isNeeded || needed && name.elementsEqual(file)
      }
      guard isNeeded else {
        throw problem(
          "DT_VERNEED vn_file", "a library that DT_NEEDED names",
          "'\(String(decoding: file, as: UTF8.self))'")
      }
      try walk(
        at &+ UInt64(need.u32(8)), "DT_VERNEED vn_aux", record: 16, next: 12
      ) { version, _ throws(PluginProblem) in
        try checkName(version.u32(8), tags, "vna_name")
        highest = max(highest, Int(version.u16(6) & 0x7fff))
      }
    }
    guard tags.versym != 0 else { return }
    let versions = try bytes(tags.versym, count: UInt64(symbolCount) * 2, "DT_VERSYM")
    for symbol in 0..<symbolCount where Int(versions.u16(symbol * 2) & 0x7fff) > highest {
      throw problem(
        "DT_VERSYM entry \(symbol)", "a version index up to \(highest)",
        "\(versions.u16(symbol * 2) & 0x7fff)")
    }
  }

  private func checkName(_ offset: UInt32, _ tags: DynamicTags, _ field: String)
    throws(PluginProblem)
  {
    guard UInt64(offset) < tags.strsz else {
      throw problem(field, "an offset below DT_STRSZ (\(tags.strsz))", "\(offset)")
    }
  }

  /// Calls `body` with each record of `record` bytes from `address` and its address, each linked
  /// to the next by the 32-bit offset at `next`, until one whose offset is 0: the loader follows
  /// the links, not the count the dynamic entry gives, so neither does this walk.
  private func walk(
    _ address: UInt64, _ what: String, record: UInt64, next: Int,
    _ body: (ArraySlice<UInt8>, UInt64) throws(PluginProblem) -> Void
  ) throws(PluginProblem) {
    guard address != 0 else { return }
    var at = address
    for _ in 0..<(1 << 16) {
      let entry = try bytes(at, count: record, what)
      try body(entry, at)
      let step = UInt64(entry.u32(next))
      guard step != 0 else { return }
      at &+= step
    }
    throw problem(what, "a list that ends", "more than \(1 << 16) entries")
  }

  /// The SysV hash table (`DT_HASH`): its buckets and chains inside a segment, each index below
  /// its chain count.
  private func checkHash(_ address: UInt64) throws(PluginProblem) {
    guard address != 0 else { return }
    let head = try bytes(address, count: 8, "DT_HASH")
    let (buckets, chains) = (UInt64(head.u32(0)), UInt64(head.u32(4)))
    let table = try bytes(address &+ 8, count: (buckets + chains) * 4, "DT_HASH")
    for index in 0..<Int(buckets + chains) where UInt64(table.u32(index * 4)) >= chains {
      throw problem(
        "DT_HASH entry \(index)", "an index below nchain (\(chains))", "\(table.u32(index * 4))")
    }
  }

  /// The relocation kinds linkers write into a shared library's tables, and the loader applies
  /// without crashing on any symbol: `R_X86_64_` NONE, 64, GLOB_DAT, JUMP_SLOT, RELATIVE,
  /// DTPMOD64, DTPOFF64, TPOFF64, TLSDESC, IRELATIVE, and the `R_AARCH64_` same; the jump table
  /// (`DT_JMPREL`) holds only JUMP_SLOT, TLSDESC and IRELATIVE. (`COPY` belongs to executables;
  /// `SIZE64` against an undefined weak symbol makes the loader read through a null pointer.)
  private static let x86Kinds: [UInt64] = [0, 1, 6, 7, 8, 16, 17, 18, 36, 37]
  private static let x86JumpKinds: [UInt64] = [7, 36, 37]
  private static let aarch64Kinds: [UInt64] = [
    0, 257, 1025, 1026, 1027, 1028, 1029, 1030, 1031, 1032,
  ]
  private static let aarch64JumpKinds: [UInt64] = [1026, 1031, 1032]

  /// A relocation table of `size` bytes at `address`, each entry of one of `kinds`, whose first
  /// `relative` entries the loader takes as relative relocations without looking
  /// (`DT_RELACOUNT`).
  private func checkRelocations(
    _ address: UInt64, size: UInt64, _ what: String, relative relativeCount: UInt64,
    kinds: [UInt64], _ tags: DynamicTags
  ) throws(PluginProblem) {
    guard address != 0, size > 0 else { return }
    guard size % 24 == 0, relativeCount <= size / 24 else {
      throw problem(
        what, "a multiple of 24 bytes, DT_RELACOUNT entries or more",
        "\(size) bytes, DT_RELACOUNT \(relativeCount)")
    }
    let table = try bytes(address, count: size, what)
    let end = self.end
    // R_AARCH64_ and R_X86_64_ RELATIVE and IRELATIVE.
    let (relative, indirect): (UInt64, UInt64) = machine == .aarch64 ? (1027, 1032) : (8, 37)
    for base in stride(from: 0, to: table.count, by: 24) {
      let (target, info) = (table.u64(base), table.u64(base + 8))
      guard maps(target, count: 8, flags: Self.writable) else {
        throw problem(
          "\(what) entry \(base / 24) r_offset", "an address in a writable segment", "\(target)")
      }
      guard info >> 32 < UInt64(symbolCount) else {
        throw problem(
          "\(what) entry \(base / 24) r_info", "a symbol index below \(symbolCount)",
          "\(info >> 32)")
      }
      // An indirect relocation's addend is a function the loader calls. (A relative one's may
      // carry tag bits, as Swift metadata's do: not an address to check.)
      let (kind, addend) = (info & 0xffff_ffff, table.u64(base + 16))
      guard kinds.contains(kind) else {
        throw problem(
          "\(what) entry \(base / 24) r_info",
          "a relocation type the loader applies in a shared library (\(kinds.map(String.init).joined(separator: ", ")))",
          "type \(kind)")
      }
      if UInt64(base / 24) < relativeCount, kind != relative {
        throw problem(
          "\(what) entry \(base / 24) r_info", "a relative relocation (within DT_RELACOUNT)",
          "type \(kind)")
      }
      let called = kind == indirect || kind == relative && tags.isCalled(target)
      if called, !maps(addend, count: 1, flags: Self.executable) {
        throw problem(
          "\(what) entry \(base / 24) r_addend", "an address in an executable segment",
          "\(addend)")
      }
      // A relative relocation's addend is an address in the library (its low bits may be
      // tags); any other's an offset from its symbol or in a TLS block. Damage to a high byte
      // makes a pointer nowhere; lower bytes are beyond any check (a `sha256` pins them).
      if kind == relative ? addend > end : Int64(bitPattern: addend).magnitude >= 1 << 32 {
        throw problem(
          "\(what) entry \(base / 24) r_addend",
          kind == relative
            ? "an address inside the library's segments (up to \(end))"
            : "an offset below 2^32 from its symbol", "\(Int64(bitPattern: addend))")
      }
    }
  }

  /// The end of the library's memory: the end of its last loadable segment.
  private var end: UInt64 {
    var end: UInt64 = 0
    for index in 0..<headerCount where type(index) == Self.load {
      end = max(end, field(index, 16) + field(index, 40))
    }
    return end
  }

  private func checkRelative(_ address: UInt64, size: UInt64) throws(PluginProblem) {
    guard address != 0, size > 0 else { return }
    guard size % 8 == 0 else { throw problem("DT_RELRSZ", "a multiple of 8 bytes", "\(size)") }
    let table = try bytes(address, count: size, "DT_RELR")
    var next: UInt64 = 0
    for base in stride(from: 0, to: table.count, by: 8) {
      let entry = table.u64(base)
      if entry & 1 == 0 {
        guard maps(entry, count: 8, flags: Self.writable) else {
          throw problem("DT_RELR entry \(base / 8)", "an address in a writable segment", "\(entry)")
        }
        next = entry + 8
      } else {
        // Bit n (from 1) relocates the word n - 1 words after `next`.
        var (bits, at) = (entry >> 1, next)
        while bits != 0 {
          if bits & 1 == 1, !maps(at, count: 8, flags: Self.writable) {
            throw problem("DT_RELR entry \(base / 8)", "addresses in a writable segment", "\(at)")
          }
          (bits, at) = (bits >> 1, at &+ 8)
        }
        next &+= 63 * 8
      }
    }
  }

  private func problem(_ field: String, _ expected: String, _ found: String) -> PluginProblem {
    Self.problem(file, field, expected, found)
  }

  private static func problem(
    _ file: ByteFile, _ field: String, _ expected: String, _ found: String
  ) -> PluginProblem {
    PluginProblem(
      .malformedELF, file: file.path, field: field, expected: expected, found: found, hint: hint)
  }
}

/// The `.dynamic` entries the loader acts on before any code runs (0 for an absent one), and the
/// string offsets of the entries that name libraries and paths.
private struct DynamicTags {
  var strtab: UInt64 = 0, strsz: UInt64 = 0, symtab: UInt64 = 0, hash: UInt64 = 0
  var gnuHash: UInt64 = 0, versym: UInt64 = 0
  var verdef: UInt64 = 0, verneed: UInt64 = 0
  var rela: UInt64 = 0, relasz: UInt64 = 0, jmprel: UInt64 = 0, pltrelsz: UInt64 = 0
  var relr: UInt64 = 0, relrsz: UInt64 = 0
  var initArray: UInt64 = 0, initArraySize: UInt64 = 0, finiArray: UInt64 = 0
  var finiArraySize: UInt64 = 0, preinitArray: UInt64 = 0, preinitArraySize: UInt64 = 0
  var initFunction: UInt64 = 0, finiFunction: UInt64 = 0, relacount: UInt64 = 0
  /// Bit n set: tag n (below 64) is present.
  private var present: UInt64 = 0
  /// The dynamic entries, up to DT_NULL.
  let entries: ArraySlice<UInt8>
  /// The first entry whose size the loader asserts (`DT_SYMENT`, `DT_RELAENT`, `DT_RELRENT`,
  /// `DT_PLTREL`) found wrong, or `DT_REL`, which this machine's loader does not take; "" for
  /// none. Three fields, not an array of tuples: a new generic type costs the first plugin of a
  /// process a metadata instantiation (BENCHMARKS.md, "Plugins").
  var wrongSize = ""
  var expectedSize: UInt64 = 0, foundSize: UInt64 = 0

  init(_ entries: ArraySlice<UInt8>) { self.entries = entries }

  /// Whether tag `tag` (below 64) is present.
  func has(_ tag: UInt64) -> Bool { present & (1 << tag) != 0 }

  /// The first entry present without the one the loader reads beside it (a table and its
  /// size), or a table every library has that is missing: (entry, what is missing).
  func unpaired() -> (present: String, missing: String)? {
    if has(23) && !has(2) { return ("DT_JMPREL", "DT_PLTRELSZ") }
    if has(23) && !has(20) { return ("DT_JMPREL", "DT_PLTREL") }
    if has(2) && !has(23) { return ("DT_PLTRELSZ", "DT_JMPREL") }
    if has(7) && !has(8) { return ("DT_RELA", "DT_RELASZ") }
    if has(7) && !has(9) { return ("DT_RELA", "DT_RELAENT") }
    if has(8) && !has(7) { return ("DT_RELASZ", "DT_RELA") }
    if has(25) != has(27) {
      return has(25) ? ("DT_INIT_ARRAY", "DT_INIT_ARRAYSZ") : ("DT_INIT_ARRAYSZ", "DT_INIT_ARRAY")
    }
    if has(26) != has(28) {
      return has(26) ? ("DT_FINI_ARRAY", "DT_FINI_ARRAYSZ") : ("DT_FINI_ARRAYSZ", "DT_FINI_ARRAY")
    }
    if has(32) != has(33) {
      return has(32)
        ? ("DT_PREINIT_ARRAY", "DT_PREINIT_ARRAYSZ") : ("DT_PREINIT_ARRAYSZ", "DT_PREINIT_ARRAY")
    }
    if has(36) && !has(35) { return ("DT_RELR", "DT_RELRSZ") }
    if has(36) && !has(37) { return ("DT_RELR", "DT_RELRENT") }
    if has(35) && !has(36) { return ("DT_RELRSZ", "DT_RELR") }
    if !has(5) { return ("PT_DYNAMIC", "DT_STRTAB") }
    if !has(6) { return ("PT_DYNAMIC", "DT_SYMTAB") }
    if !has(10) { return ("PT_DYNAMIC", "DT_STRSZ") }
    return nil
  }

  /// Whether `slot` is in an array of functions the loader calls (init, fini, preinit).
  func isCalled(_ slot: UInt64) -> Bool {
    func inside(_ start: UInt64, _ size: UInt64) -> Bool { slot >= start && slot - start < size }
    return inside(initArray, initArraySize) || inside(finiArray, finiArraySize)
      || inside(preinitArray, preinitArraySize)
  }

  /// Calls `body` with the string offset of each `DT_NEEDED` entry (`isNeeded`), `DT_SONAME`,
  /// `DT_RPATH` and `DT_RUNPATH` entry, in order.
  func forEachString(_ body: (UInt64, _ isNeeded: Bool) throws(PluginProblem) -> Void)
    throws(PluginProblem)
  {
    for base in stride(from: 0, to: entries.count - 15, by: 16) {
      let tag = entries.u64(base)
      if tag == 0 { return }
      if tag == 1 || tag == 14 || tag == 15 || tag == 29 {
        try body(entries.u64(base + 8), tag == 1)
      }
    }
  }

  mutating func set(_ tag: UInt64, _ value: UInt64) {
    if tag < 64 { present |= 1 << tag }
    switch tag {
    case 2: pltrelsz = value
    case 4: hash = value
    case 5: strtab = value
    case 6: symtab = value
    case 7: rela = value
    case 8: relasz = value
    case 9: expect("DT_RELAENT", 24, value)
    case 10: strsz = value
    case 11: expect("DT_SYMENT", 24, value)
    case 12: initFunction = value
    case 13: finiFunction = value
    case 17: expect("DT_REL", 0, value)
    case 20: expect("DT_PLTREL", 7, value)  // DT_RELA
    case 23: jmprel = value
    case 25: initArray = value
    case 26: finiArray = value
    case 27: initArraySize = value
    case 28: finiArraySize = value
    case 32: preinitArray = value
    case 33: preinitArraySize = value
    case 35: relrsz = value
    case 36: relr = value
    case 37: expect("DT_RELRENT", 8, value)
    case 0x6fff_fef5: gnuHash = value
    case 0x6fff_fff0: versym = value
    case 0x6fff_fff9: relacount = value
    case 0x6fff_fffc: verdef = value
    case 0x6fff_fffe: verneed = value
    default: break
    }
  }

  private mutating func expect(_ tag: String, _ expected: UInt64, _ found: UInt64) {
    if wrongSize.isEmpty, found != expected || tag == "DT_REL" {
      (wrongSize, expectedSize, foundSize) = (tag, expected, found)
    }
  }
}
