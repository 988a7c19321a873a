/// What the load gate reads from a library file: everything its checks of that one file look at.
///
/// Taken from the file's ELF image as soon as the image is read (which also runs the dynamic
/// loader's checks, so a file whose reading throws has no facts); the image and the buffer it
/// reads are then free for the next file, and the checks run on the facts alone.
///
/// A class: a run hands facts around between its libraries without copying them.
final class LibraryFacts: Sendable {
  /// A Swift module, other than the library's own, whose type or protocol descriptors the
  /// library defines: a sign it embeds a copy of that module (checked against the ABI's modules
  /// and the contract libraries of a run).
  struct ForeignModule: Sendable {
    let name: String
    /// How many descriptors of it the library defines.
    let count: Int
    /// The first such symbol in byte order, for a message.
    let example: String
  }

  /// The path the file was read at.
  let path: String
  /// The file as it was read.
  let identity: FileIdentity
  /// `e_type`: 3 for a shared object.
  let fileType: UInt16
  let machine: ELFMachine
  /// `DT_SONAME`, nil when it has none.
  let soname: String?
  /// `DT_NEEDED` names, in order.
  let needed: [String]
  /// `DT_RUNPATH` and `DT_RPATH` directories as written (`$ORIGIN` unexpanded).
  let runpath: [String]
  let rpath: [String]
  /// Whether the file has an `apiary_plugin` section.
  let hasDescriptor: Bool
  /// The descriptor parsed from it, and the problems of parsing it (each naming ``path``).
  let descriptor: PluginDescriptor?
  let descriptorProblems: [PluginProblem]
  /// Whether it defines ``LoadGate/entrySymbol`` (false for a library without a descriptor).
  let definesEntry: Bool
  /// The modules it defines descriptors of besides its own, in the order first met. Empty for a
  /// library without a descriptor, which no check scans.
  let foreignModules: [ForeignModule]

  /// The facts of `image`, which its reading has checked as the loader would.
  init(image: ELFImage) {
    path = image.path
    identity = image.identity
    fileType = image.fileType
    machine = image.machine
    soname = image.soname
    needed = image.neededLibraries
    runpath = image.runpath
    rpath = image.rpath
    hasDescriptor = image.descriptorBytes != nil
    (descriptor, descriptorProblems) =
      image.descriptorBytes.map { PluginDescriptor.parse($0, file: image.path) } ?? (nil, [])
    // A library without a descriptor is refused for that; no check looks at its symbols.
    var definesEntry = false
    foreignModules =
      descriptor.map { Self.scan(image.symbols, own: $0, definesEntry: &definesEntry) } ?? []
    self.definesEntry = definesEntry
  }

  /// Whether the file is a shared library (`ET_DYN`), the only kind the host can load.
  var isSharedObject: Bool { fileType == ELFLayout.sharedObjectType }

  /// One pass over the defined symbols: the entry symbol, and the modules other than the
  /// descriptor's own (its plugin name, its exported types' modules) whose type or protocol
  /// descriptors are defined. Names are compared as bytes; a `String` is made only for a foreign
  /// module and its example.
  private static func scan(
    _ symbols: DynamicSymbols, own descriptor: PluginDescriptor, definesEntry: inout Bool
  ) -> [ForeignModule] {
    let own = ownModules(of: descriptor)
    var names: [ArraySlice<UInt8>] = []
    var counts: [Int] = []
    var examples: [ArraySlice<UInt8>] = []
    let entryLength = LoadGate.entrySymbol.utf8.count
    var entry = false
    symbols.forEachSymbol(defined: true) { symbol in
      if !entry && symbol.count == entryLength && symbol.elementsEqual(LoadGate.entrySymbol.utf8) {
        entry = true
        return
      }
      guard symbol.count > 4, symbol.last == 0x6e || symbol.last == 0x70,  // n, p
        let module = SwiftMangling.declaringModule(ofDescriptor: symbol),
        !own.contains(where: { $0.utf8.count == module.count && $0.utf8.elementsEqual(module) })
      else { return }
      guard let which = names.firstIndex(where: { $0.elementsEqual(module) }) else {
        names.append(module)
        counts.append(1)
        examples.append(symbol)
        return
      }
      counts[which] += 1
      if symbol.lexicographicallyPrecedes(examples[which]) { examples[which] = symbol }
    }
    definesEntry = entry
    return names.indices.map { index in
      ForeignModule(
        name: String(decoding: names[index], as: UTF8.self), count: counts[index],
        example: String(decoding: examples[index], as: UTF8.self))
    }
  }

  /// The modules a library with `descriptor` is: its plugin name and its exported types'
  /// modules (`NotesPlugin` for `NotesPlugin.NotesModule`).
  private static func ownModules(of descriptor: PluginDescriptor) -> [String] {
    var own = [descriptor.plugin]
    for type in descriptor.modules + descriptor.targets {
      guard let dot = type.utf8.firstIndex(of: 0x2e) else { continue }  // "."
      let module = String(decoding: type.utf8[..<dot], as: UTF8.self)
      if !own.contains(module) { own.append(module) }
    }
    return own
  }
}
