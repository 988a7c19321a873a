/// What can be known about an ELF64 little-endian library without loading it: its type and
/// machine, its section names, the dynamic symbols it defines and references, the libraries it
/// needs and where it asks the loader to look for them, and the sections the load gate reads.
///
/// Every offset and count is checked against the file, so a truncated or damaged file gives a
/// ``PluginProblem`` rather than a crash. Of a library over 64 KiB only the headers and the
/// sections below are read (`.dynsym` and its strings, `.dynamic` and its strings,
/// `apiary_plugin`); a smaller one is read whole, in one system call.
///
/// ```swift
/// let image = try ELFImage(contentsOf: "/plugins/libNotes.so")
/// print(image.isSharedObject, image.machine, image.neededLibraries, image.runpath)
/// let hasEntry = image.defines("apiary_plugin_entry")
/// ```
///
/// A class: an image is read once and only read after, and a copy of a struct this large went
/// through its type's metadata, new to a fresh process (BENCHMARKS.md, "Plugins").
public final class ELFImage: Sendable {
  /// The path as given.
  public let path: String
  /// The file's size in bytes.
  public let fileSize: Int
  /// `e_type`: 1 relocatable, 2 executable, 3 shared object, 4 core.
  public let fileType: UInt16
  /// The processor the file was built for.
  public let machine: ELFMachine
  /// `DT_NEEDED` entries, in order: the libraries the loader opens with this one.
  public var neededLibraries: [String] {
    var names: [String] = []
    forEachNeeded { names.append(String(decoding: $0, as: UTF8.self)) }
    return names
  }
  /// `DT_RUNPATH` directories, unexpanded (`$ORIGIN` stays as written).
  public var runpath: [String] { directories(tagged: 29) }
  /// `DT_RPATH` directories (the older form, used only when there is no `DT_RUNPATH`).
  public var rpath: [String] { directories(tagged: 15) }
  /// `DT_SONAME`, the name the loader knows the library by once it is loaded.
  public var soname: String? {
    var soname: String?
    forEachDynamicString(tagged: 14) { soname = String(decoding: $0, as: UTF8.self) }
    return soname
  }
  /// The dynamic symbol table.
  let symbols: DynamicSymbols
  /// The file's device and inode.
  let identity: FileIdentity
  /// The `apiary_plugin` section, nil when the file has none.
  let descriptorBytes: ArraySlice<UInt8>?
  // The sections read, each its own property (a dictionary by name cost a generic metadata
  // instantiation per fresh process), and each a slice of the one buffer a small file is read
  // into (a copy each cost an allocation; BENCHMARKS.md, "Plugins").
  private let dynamicSymbolBytes: ArraySlice<UInt8>?
  private let dynamicBytes: ArraySlice<UInt8>?
  /// The string table of `.dynamic` (usually `.dynsym`'s too).
  private let dynamicStrings: ArraySlice<UInt8>
  private let sectionNameTable: ArraySlice<UInt8>
  private let sectionTable: ArraySlice<UInt8>

  /// Reads the headers and the sections above from `path`.
  ///
  /// ```swift
  /// let image = try ELFImage(contentsOf: "/plugins/libNotes.so")
  /// ```
  public convenience init(contentsOf path: String) throws(PluginProblem) {
    try self.init(layout: ELFLayout(ByteFile(path: path)))
  }

  init(layout: ELFLayout) throws(PluginProblem) {
    let file = layout.file
    path = file.path
    fileSize = file.size
    fileType = layout.type
    machine = layout.machine
    identity = file.identity
    sectionNameTable = layout.names
    sectionTable = layout.table
    descriptorBytes = try layout.contents(ofSection: layout.descriptor)
    var dynamicSymbolStrings: (link: Int, bytes: ArraySlice<UInt8>) = (-1, [])
    if layout.dynamicSymbols >= 0 {
      let table = layout.section(layout.dynamicSymbols)
      guard table.entrySize == 24 || table.entrySize == 0 else {
        throw PluginProblem(
          .malformedELF, file: path, field: "sh_entsize of \(layout.name(of: table))",
          expected: "24",
          found: "\(table.entrySize)")
      }
      var (entries, strings): (ArraySlice<UInt8>, ArraySlice<UInt8>) = ([], [])
      if !layout.readAdjacent(table, table.link, into: &entries, &strings) {
        entries = try layout.contents(of: table)
        strings = try layout.strings(at: table.link, for: table)
      }
      dynamicSymbolStrings = (table.link, strings)
      dynamicSymbolBytes = entries
      symbols = DynamicSymbols(entries: entries, strings: strings)
    } else {
      dynamicSymbolBytes = nil
      symbols = DynamicSymbols(entries: [], strings: [])
    }
    if layout.dynamic >= 0 {
      let dynamic = layout.section(layout.dynamic)
      dynamicBytes = try layout.contents(of: dynamic)
      dynamicStrings =
        dynamic.link == dynamicSymbolStrings.link
        ? dynamicSymbolStrings.bytes : try layout.strings(at: dynamic.link, for: dynamic)
    } else {
      dynamicBytes = nil
      dynamicStrings = []
    }
    // What `dlopen` would read, for the one kind of file the host opens.
    // (A library for another machine is refused as such; its relocations are not this one's.)
    if fileType == ELFLayout.sharedObjectType, machine == .host { try LoaderView.check(layout) }
  }

  /// The names of all sections, in header order.
  public var sectionNames: [String] {
    stride(from: 0, to: sectionTable.count, by: 64).map {
      sectionNameTable.cString(at: Int(sectionTable.u32($0)))
    }
  }

  /// Whether the file is a shared library (`ET_DYN`), the only kind the host can load.
  public var isSharedObject: Bool { fileType == ELFLayout.sharedObjectType }

  /// The contents of a section this image read (`apiary_plugin`, `.dynsym`, `.dynamic`), or `nil` when the file has no such section.
  ///
  /// ```swift
  /// let descriptorBytes = image.section(named: "apiary_plugin")
  /// ```
  public func section(named name: String) -> [UInt8]? {
    let bytes: ArraySlice<UInt8>? =
      switch name {
      case PluginDescriptor.sectionName: descriptorBytes
      case ".dynsym": dynamicSymbolBytes
      case ".dynamic": dynamicBytes
      default: nil
      }
    return bytes.map { Array($0) }
  }

  /// The names of the dynamic symbols this library defines (exports).
  public var definedSymbols: [String] { symbols.names(defined: true) }

  /// The names of the dynamic symbols this library references but leaves to other libraries.
  public var undefinedSymbols: [String] { symbols.names(defined: false) }

  /// Whether the library defines (exports) the dynamic symbol `name`.
  ///
  /// ```swift
  /// let loadable = image.defines("apiary_plugin_entry")
  /// ```
  public func defines(_ name: String) -> Bool {
    var found = false
    symbols.forEachSymbol(defined: true) { symbol in
      if !found && symbol.count == name.utf8.count && symbol.elementsEqual(name.utf8) {
        found = true
      }
    }
    return found
  }

  /// Calls `body` with the name of each `DT_NEEDED` entry, in order, as bytes: the gate looks
  /// most of them up among the libraries already loaded, without making a `String` of each.
  func forEachNeeded(_ body: (ArraySlice<UInt8>) -> Void) {
    forEachDynamicString(tagged: 1, body)
  }

  /// Calls `body` with the string of each `.dynamic` entry tagged `tag`, in order, up to
  /// `DT_NULL`.
  private func forEachDynamicString(tagged tag: UInt64, _ body: (ArraySlice<UInt8>) -> Void) {
    guard let entries = dynamicBytes else { return }
    for base in stride(from: 0, to: entries.count - 15, by: 16) {
      let entryTag = entries.u64(base)
      if entryTag == 0 { break }  // DT_NULL
      guard entryTag == tag else { continue }
      body(dynamicStrings.cStringBytes(at: Int(exactly: entries.u64(base + 8)) ?? -1))
    }
  }

  /// The ":"-separated directories of the `.dynamic` entries tagged `tag` (`DT_RPATH`,
  /// `DT_RUNPATH`), empty ones skipped. Split by hand: `split` makes an array of slices, a type
  /// whose metadata a fresh process instantiates on first use (BENCHMARKS.md, "Plugins").
  private func directories(tagged tag: UInt64) -> [String] {
    var found: [String] = []
    forEachDynamicString(tagged: tag) { list in
      var start = list.startIndex
      while start < list.endIndex {
        let end = list[start...].firstIndex(of: 0x3a) ?? list.endIndex  // ":"
        if end > start { found.append(String(decoding: list[start..<end], as: UTF8.self)) }
        start = end + 1
      }
    }
    return found
  }
}
