/// What can be known about an ELF64 little-endian library without loading it: its type and
/// machine, its section names, the dynamic symbols it defines and references, the libraries it
/// needs and where it asks the loader to look for them, and the sections the load gate reads.
///
/// Every offset and count is checked against the file, so a truncated or damaged file gives a
/// ``PluginProblem`` rather than a crash. Of a library over 64 KiB only the headers and the
/// sections below are read (`.dynsym` and its strings, `.dynamic` and its strings, `.comment`,
/// `apiary_plugin`); a smaller one is read whole, in one system call.
///
/// ```swift
/// let image = try ELFImage(contentsOf: "/plugins/libNotes.so")
/// print(image.isSharedObject, image.machine, image.neededLibraries, image.runpath)
/// let hasEntry = image.defines("apiary_plugin_entry")
/// ```
public struct ELFImage: Sendable {
  /// The path as given.
  public let path: String
  /// The file's size in bytes.
  public let fileSize: Int
  /// `e_type`: 1 relocatable, 2 executable, 3 shared object, 4 core.
  public let fileType: UInt16
  /// The processor the file was built for.
  public let machine: ELFMachine
  /// `DT_NEEDED` entries, in order: the libraries the loader opens with this one.
  public let neededLibraries: [String]
  /// `DT_RUNPATH` directories, unexpanded (`$ORIGIN` stays as written).
  public let runpath: [String]
  /// `DT_RPATH` directories (the older form, used only when there is no `DT_RUNPATH`).
  public let rpath: [String]
  /// `DT_SONAME`, the name the loader knows the library by once it is loaded.
  public let soname: String?
  /// The strings in `.comment` (which compilers and linkers built the file).
  public var comment: [String] {
    (commentBytes ?? []).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
  }
  /// The dynamic symbol table.
  let symbols: DynamicSymbols
  /// The file's device and inode.
  let identity: FileIdentity
  // The sections read, each its own property: a dictionary by name cost a generic metadata
  // instantiation per fresh process (BENCHMARKS.md, "Plugins").
  private let commentBytes: [UInt8]?
  private let descriptorBytes: [UInt8]?
  private let dynamicSymbolBytes: [UInt8]?
  private let dynamicBytes: [UInt8]?
  private let sectionNameTable: [UInt8]
  private let sectionNameOffsets: [Int]

  /// Reads the headers and the sections above from `path`.
  ///
  /// ```swift
  /// let image = try ELFImage(contentsOf: "/plugins/libNotes.so")
  /// ```
  public init(contentsOf path: String) throws(PluginProblem) {
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
    sectionNameOffsets = (0..<layout.sectionCount).map { layout.section($0).nameOffset }
    commentBytes = try layout.section(named: ".comment").map(layout.contents(of:))
    descriptorBytes = try layout.section(named: PluginDescriptor.sectionName).map(
      layout.contents(of:))
    var dynamicSymbolStrings: (link: Int, bytes: [UInt8]) = (-1, [])  // usually .dynamic's too
    if let table = layout.firstSection(where: { $0.type == 11 }) {  // SHT_DYNSYM
      guard table.entrySize == 24 || table.entrySize == 0 else {
        throw PluginProblem(
          .malformedELF, file: path, field: "sh_entsize of \(layout.name(of: table))",
          expected: "24",
          found: "\(table.entrySize)")
      }
      let entries = try layout.contents(of: table)
      let strings = try layout.strings(at: table.link, for: table)
      dynamicSymbolStrings = (table.link, strings)
      dynamicSymbolBytes = entries
      symbols = DynamicSymbols(entries: entries, strings: strings)
    } else {
      dynamicSymbolBytes = nil
      symbols = DynamicSymbols(entries: [], strings: [])
    }
    var needed: [String] = []
    var runpath: [String] = []
    var rpath: [String] = []
    var soname: String?
    var dynamicBytes: [UInt8]?
    if let dynamic = layout.firstSection(where: { $0.type == 6 }) {  // SHT_DYNAMIC
      let entries = try layout.contents(of: dynamic)
      let strings =
        dynamic.link == dynamicSymbolStrings.link
        ? dynamicSymbolStrings.bytes : try layout.strings(at: dynamic.link, for: dynamic)
      dynamicBytes = entries
      func directories(_ offset: Int) -> [String] {
        guard offset >= 0, offset < strings.count else { return [] }
        let end = strings.firstIndex(of: 0, in: offset..<strings.count) ?? strings.count
        var found: [String] = []
        var start = offset
        while start < end {  // ":"-separated, empty entries skipped
          let stop = strings.firstIndex(of: 0x3a, in: start..<end) ?? end
          if stop > start { found.append(String(decoding: strings[start..<stop], as: UTF8.self)) }
          start = stop + 1
        }
        return found
      }
      for base in stride(from: 0, to: entries.count - 15, by: 16) {
        let tag = entries.u64(base)
        let value = Int(exactly: entries.u64(base + 8)) ?? -1
        if tag == 0 { break }  // DT_NULL
        switch tag {
        case 1: needed.append(strings.cString(at: value))  // DT_NEEDED
        case 14: soname = strings.cString(at: value)  // DT_SONAME
        case 15: rpath += directories(value)  // DT_RPATH
        case 29: runpath += directories(value)  // DT_RUNPATH
        default: break
        }
      }
    }
    neededLibraries = needed
    self.runpath = runpath
    self.rpath = rpath
    self.soname = soname
    self.dynamicBytes = dynamicBytes
  }

  /// The names of all sections, in header order.
  public var sectionNames: [String] { sectionNameOffsets.map(sectionNameTable.cString(at:)) }

  /// Whether the file is a shared library (`ET_DYN`), the only kind the host can load.
  public var isSharedObject: Bool { fileType == ELFLayout.sharedObjectType }

  /// The contents of a section this image read (`apiary_plugin`, `.comment`, `.dynsym`,
  /// `.dynamic`), or `nil` when the file has no such section.
  ///
  /// ```swift
  /// let descriptorBytes = image.section(named: "apiary_plugin")
  /// ```
  public func section(named name: String) -> [UInt8]? {
    switch name {
    case PluginDescriptor.sectionName: descriptorBytes
    case ".comment": commentBytes
    case ".dynsym": dynamicSymbolBytes
    case ".dynamic": dynamicBytes
    default: nil
    }
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
    let wanted = Array(name.utf8)
    var found = false
    symbols.forEachSymbol { symbol, defined in
      if defined && !found && symbol.count == wanted.count && symbol.elementsEqual(wanted) {
        found = true
      }
    }
    return found
  }
}
