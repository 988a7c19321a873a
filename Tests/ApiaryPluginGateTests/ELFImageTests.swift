import ApiaryPluginGate
import Foundation
import Testing

@Suite struct ELFImageTests {
  let fixtures: Fixtures

  init() throws { fixtures = try Fixtures() }

  /// A plugin that needs `libdep.so` (in `lib/`, found through RUNPATH `$ORIGIN/lib`).
  private func plugin(flags: [String] = ["-Wl,-rpath,$ORIGIN/lib"]) throws -> String {
    try fixtures.library(
      "dep", in: "lib", descriptor: nil, entry: false,
      source: "int dep_function(void) { return 1; }")
    return try fixtures.library(
      "Notes", descriptor: Fixtures.descriptor(plugin: "notes"),
      source: "int dep_function(void);\nint notes_call(void) { return dep_function(); }",
      flags: ["-L\(fixtures.directory)/lib", "-ldep", "-Wl,-soname,libNotes.so"] + flags)
  }

  @Test func readsARealSharedLibrary() throws {
    let path = try plugin()
    let image = try ELFImage(contentsOf: path)
    #expect(image.path == path)
    #expect(image.isSharedObject)
    #expect(image.machine == .host)
    #expect(image.neededLibraries.first == "libdep.so")
    #expect(image.runpath == ["$ORIGIN/lib"])
    #expect(image.rpath == [])
    #expect(image.soname == "libNotes.so")
    #expect(image.definedSymbols.contains("apiary_plugin_entry"))
    #expect(image.definedSymbols.contains("notes_call"))
    #expect(!image.definedSymbols.contains("dep_function"))
    #expect(image.undefinedSymbols.contains("dep_function"))
    #expect(image.defines("apiary_plugin_entry") && !image.defines("dep_function"))
    #expect(image.sectionNames.contains(".dynsym") && image.sectionNames.contains("apiary_plugin"))
    let descriptor = try #require(image.section(named: "apiary_plugin"))
    #expect(descriptor.starts(with: Array("descriptor 1\n".utf8)))
    #expect(descriptor.last == 0)
    #expect(image.section(named: ".text") == nil)
    #expect(image.fileSize == (try Fixtures.bytes(path)).count)
  }

  /// A library over 64 KiB is read range by range (`.dynsym` and the `.dynstr` after it by one
  /// read): what it defines, needs and describes reads as a small library's does.
  @Test func readsALibraryOverSixtyFourKiBByRanges() throws {
    _ = try plugin()  // libdep.so
    let path = try fixtures.library(
      "Large", descriptor: Fixtures.descriptor(plugin: "large"),
      source: """
        int dep_function(void);
        const char large_table[100000] = {1};
        int large_call(void) { return dep_function() + large_table[0]; }
        """,
      flags: ["-L\(fixtures.directory)/lib", "-ldep"])
    let image = try ELFImage(contentsOf: path)
    #expect(image.fileSize > 64 << 10)
    #expect(image.definedSymbols.contains("large_call"))
    #expect(image.definedSymbols.contains("large_table"))
    #expect(image.undefinedSymbols.contains("dep_function"))
    #expect(image.defines("apiary_plugin_entry") && !image.defines("dep_function"))
    #expect(image.neededLibraries.first == "libdep.so")
    let descriptor = try #require(image.section(named: "apiary_plugin"))
    #expect(descriptor.starts(with: Array("descriptor 1\n".utf8)))
  }

  @Test func readsTheOlderRPATH() throws {
    let image = try ELFImage(
      contentsOf: plugin(flags: ["-Wl,-rpath,$ORIGIN/lib", "-Wl,--disable-new-dtags"]))
    #expect(image.rpath == ["$ORIGIN/lib"])
    #expect(image.runpath == [])
  }

  @Test func splitsTheRunpathAtColonsSkippingEmptyEntries() throws {
    let image = try ELFImage(contentsOf: plugin(flags: ["-Wl,-rpath,:$ORIGIN/lib::/opt/ü:"]))
    #expect(image.runpath == ["$ORIGIN/lib", "/opt/ü"])
  }

  private func problem(_ path: String) -> String? {
    do {
      _ = try ELFImage(contentsOf: path)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func filesThatAreNotLibraries() throws {
    #expect(
      problem(fixtures.directory + "/none.so")
        == "library '\(fixtures.directory)/none.so': file not found (build the plugin first ('swift build' in its package), or fix the library path)"
    )
    // The scaffolded manifest names the release build; plain `swift build` builds debug.
    #expect(
      problem("/p/.build/release/libNone.so")
        == "library '/p/.build/release/libNone.so': file not found (build the plugin first ('swift build -c release --package-path /p'), or fix the library path)"
    )
    #expect(
      problem(fixtures.directory)
        == "library '\(fixtures.directory)': expected a shared library file, found a directory")
    // Other kinds of files are named: it said "found not a regular file".
    #expect(
      problem("/dev/zero")
        == "library '/dev/zero': expected a shared library file, found a character device")
    let fifo = fixtures.directory + "/fifo.so"
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(problem(fifo) == "library '\(fifo)': expected a shared library file, found a FIFO")
    let text = try fixtures.write(Array("hello, world\nthis is text".utf8), to: "text.so")
    #expect(
      problem(text)
        == "library '\(text)': expected an ELF shared library (starting with \\x7fELF), found text starting with \"hello, world\" (a plugin library is the .so file that 'swift build' writes to .build/<configuration>/)"
    )
    let empty = try fixtures.write([], to: "empty.so")
    #expect(problem(empty)?.contains("found an empty file") == true)
    let binary = try fixtures.write(
      [0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], to: "x.so")
    #expect(problem(binary)?.contains("found bytes ca fe ba be") == true)
  }

  @Test func truncatedAndForeignELF() throws {
    let bytes = try Fixtures.bytes(plugin())
    let header = try fixtures.write(Array(bytes.prefix(40)), to: "header.so")
    #expect(
      problem(header)
        == "library '\(header)': field 'ELF header': expected 64 bytes, found a file of 40 bytes (truncated?)"
    )
    // Cut inside the 16 identification bytes, after the magic: truncated too, not "not ELF".
    for count in [4, 15] {
      let short = try fixtures.write(Array(bytes.prefix(count)), to: "short\(count).so")
      #expect(
        problem(short)
          == "library '\(short)': field 'ELF header': expected 64 bytes, found a file of \(count) bytes (truncated?)"
      )
    }
    let cut = try fixtures.write(Array(bytes.prefix(4000)), to: "cut.so")
    #expect(
      problem(cut)?.hasPrefix(
        "library '\(cut)': field 'e_shoff': expected an offset inside the file (4000 bytes), found "
      ) == true)
    var class32 = bytes
    class32[4] = 1
    let narrow = try fixtures.write(class32, to: "narrow.so")
    #expect(
      problem(narrow)
        == "library '\(narrow)': field 'EI_CLASS': expected ELFCLASS64 (2), found ELFCLASS32 (1): a 32-bit library (rebuild the plugin for this 64-bit host)"
    )
    var bigEndian = bytes
    bigEndian[5] = 2
    let big = try fixtures.write(bigEndian, to: "big.so")
    #expect(
      problem(big)
        == "library '\(big)': field 'EI_DATA': expected ELFDATA2LSB (1, little-endian), found ELFDATA2MSB (2, big-endian) (rebuild the plugin for this host's processor)"
    )
    var hugeCount = bytes
    hugeCount[60] = 0xff
    hugeCount[61] = 0xfe
    let huge = try fixtures.write(hugeCount, to: "huge.so")
    #expect(problem(huge)?.contains("field 'e_shnum': expected at most") == true)
  }

  /// Damage to what the dynamic loader reads before any code runs, which `dlopen` would crash
  /// on (a hostile probe's corrupted plugins did, inside `ld.so`), is refused by name.
  @Test func damageTheLoaderWouldCrashOnIsRefused() throws {
    let bytes = try Fixtures.bytes(plugin())
    func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) } }
    func u32(_ at: Int) -> UInt32 { UInt32(truncatingIfNeeded: u64(at)) }
    func patched(_ at: Int, _ value: UInt64, width: Int = 8) -> [UInt8] {
      var copy = bytes
      for index in 0..<width { copy[at + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
      return copy
    }
    // Program headers: (type, offset of the header), and the dynamic entries: (tag, offset).
    let (table, count) = (Int(u64(32)), Int(bytes[56]) | Int(bytes[57]) << 8)
    let headers = (0..<count).map { (u32(table + $0 * 56), table + $0 * 56) }
    let dynamic = try #require(headers.first { $0.0 == 2 }).1
    let entries = stride(
      from: Int(u64(dynamic + 8)), to: Int(u64(dynamic + 8) + u64(dynamic + 32)), by: 16
    )
    .map { (u64($0), $0) }
    func entry(_ tag: UInt64) throws -> Int { try #require(entries.first { $0.0 == tag }).1 }
    let load = try #require(headers.first { $0.0 == 1 }).1
    func header(_ type: UInt32) throws -> Int { try #require(headers.first { $0.0 == type }).1 }
    // The file offset of `address`, through the loadable segment holding it.
    func fileOffset(_ address: UInt64) throws -> Int {
      let segment = try #require(
        headers.first {
          $0.0 == 1 && (u64($0.1 + 16)..<u64($0.1 + 16) + u64($0.1 + 32)).contains(address)
        }
      ).1
      return Int(address - u64(segment + 16) + u64(segment + 8))
    }
    let relro = try header(0x6474_e552)
    let jumpSlots = try fileOffset(u64(try entry(23) + 8))
    // This compiler's libraries have no PT_PHDR: the note header made one, at `address`.
    func programHeaders(at address: UInt64) throws -> [UInt8] {
      let note = try header(4)
      var copy = patched(note, 6, width: 4)
      for (at, value) in [(16, address), (32, UInt64(count * 56)), (40, UInt64(count * 56))] {
        for index in 0..<8 {
          copy[note + at + index] = UInt8(truncatingIfNeeded: value >> (8 * index))
        }
      }
      return copy
    }
    let rightHeaders = try fixtures.write(
      try programHeaders(at: UInt64(table)), to: "phdr-right.so")
    #expect(problem(rightHeaders) == nil)
    let cases: [(String, [UInt8], String)] = [
      // The loader write-protects this range after relocating: past the library, another's.
      (
        "relro", patched(relro + 40, u64(relro + 40) + 0xf8_0000),
        "field 'PT_GNU_RELRO p_vaddr, p_memsz': expected a range inside a writable loadable segment"
      ),
      // The loader reads the program headers again from this address.
      (
        "phdr", try programHeaders(at: UInt64(table) + 0x9900_0000),
        "field 'PT_PHDR p_vaddr': expected the address of the program headers"
      ),
      // A JUMP_SLOT turned R_X86_64_SIZE64 (or R_AARCH64_ABS64): the loader reads through null.
      (
        "jump-slot-kind", patched(jumpSlots + 8, (u64(jumpSlots + 8) >> 32) << 32 | 33, width: 4),
        "field 'DT_JMPREL entry 0 r_info': expected a relocation type the loader applies"
      ),
      ("addend", patched(jumpSlots + 16, 1 << 40), "field 'DT_JMPREL entry 0 r_addend'"),
      (
        "dynamic-address", patched(dynamic + 16, 0x7fff_0000),
        "field 'PT_DYNAMIC': expected the .dynamic section the gate reads"
      ),
      (
        "load-size", patched(load + 32, UInt64(bytes.count) * 2),
        "p_offset, p_filesz': expected a range inside the file"
      ),
      (
        "init-array-size", patched(try entry(27), 0x4e00_0000_0000_001b),
        "field 'DT_INIT_ARRAY': expected DT_INIT_ARRAYSZ with it"
      ),
      (
        "no-null",
        entries.filter { $0.0 == 0 }.reduce(bytes) { copy, entry in
          var copy = copy
          copy[entry.1] = 0x4e
          return copy
        }, "field 'PT_DYNAMIC': expected a DT_NULL entry ending it"
      ),
      ("strings", patched(try entry(10) + 8, 1 << 40), "DT_STRTAB, DT_STRSZ"),
      (
        "gnu-hash", patched(Int(u64(try entry(0x6fff_fef5) + 8)), 0, width: 4),
        "field 'DT_GNU_HASH'"
      ),
    ]
    for (name, damaged, expected) in cases {
      let path = try fixtures.write(damaged, to: "\(name).so")
      let found = problem(path) ?? "no problem"
      #expect(found.contains(expected), "\(name): \(found)")
      #expect(found.hasSuffix("(the library is damaged; rebuild the plugin or restore its file)"))
    }
  }

  /// A library asking for an executable stack is refused: the loader would make every thread's
  /// stack in the host executable (newer C libraries refuse to open it).
  @Test func anExecutableStackIsRefused() throws {
    var bytes = try Fixtures.bytes(plugin())
    let table = (0..<8).reduce(0) { $0 | Int(bytes[32 + $1]) << (8 * $1) }
    let count = Int(bytes[56]) | Int(bytes[57]) << 8
    let stack = try #require(
      (0..<count).map { table + $0 * 56 }.first { at in
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } == 0x6474_e551
      })
    bytes[stack + 4] |= 1
    let path = try fixtures.write(bytes, to: "stack.so")
    #expect(
      problem(path)
        == "library '\(path)': field 'PT_GNU_STACK p_flags': expected a stack that is not executable, found PF_X, which would make every thread's stack in the host executable (link the plugin with -z noexecstack, or find the object file that asks for an executable stack: an assembly file without a .note.GNU-stack section)"
    )
  }

  /// Random damage to a real library never crashes the reader or the gate: every outcome is an
  /// image or a problem naming the file.
  @Test func survivesRandomDamage() throws {
    let bytes = try Fixtures.bytes(plugin())
    let image = try ELFImage(contentsOf: plugin())
    let tableStart = bytes.count - image.sectionNames.count * 64
    var random = SplitMix64(seed: 12)
    var outcomes = (images: 0, problems: 0)
    for round in 0..<400 {
      var damaged = bytes
      for _ in 0..<Int.random(in: 1...8, using: &random) {
        // Mostly the headers and the section table, where a bad value sends reads astray.
        let position =
          switch Int.random(in: 0..<3, using: &random) {
          case 0: Int.random(in: 0..<64, using: &random)
          case 1: Int.random(in: tableStart..<bytes.count, using: &random)
          default: Int.random(in: 0..<bytes.count, using: &random)
          }
        damaged[position] = UInt8.random(in: 0...255, using: &random)
      }
      if round % 4 == 0 {
        damaged = Array(damaged.prefix(Int.random(in: 0..<bytes.count, using: &random)))
      }
      let path = try fixtures.write(damaged, to: "fuzz.so")
      do {
        let read = try ELFImage(contentsOf: path)
        _ = (read.definedSymbols, read.undefinedSymbols, read.defines("apiary_plugin_entry"))
        outcomes.images += 1
      } catch {
        #expect(error.file == path)
        outcomes.problems += 1
      }
      let (_, problems) = LoadGate.check(
        [PluginCandidate(name: "notes", library: path, origin: "fuzz")], host: Fixtures.host)
      #expect(problems.allSatisfy { $0.file.hasPrefix(fixtures.directory) })
    }
    #expect(outcomes.images > 0 && outcomes.problems > 0)
  }
}

/// A seeded generator, so a failing damage pattern repeats.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
