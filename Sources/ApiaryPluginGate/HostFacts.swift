/// What the host was built as: the facts a plugin's descriptor must match.
///
/// ```swift
/// let host = HostFacts(
///   apiaryVersion: SemanticVersion(1, 4, 0), abiHash: "3f2a9c", compiler: "Clang 17.0.0",
///   triple: "x86_64-unknown-linux-gnu", abiModules: ["Apiary"])
/// ```
public struct HostFacts: Sendable, Hashable {
  /// The host's Apiary version, checked against `requires apiary` ranges.
  public var apiaryVersion: SemanticVersion
  /// The hash of the ABI plugins compile against.
  public var abiHash: String
  /// The C `__VERSION__` of the toolchain that built the host.
  public var compiler: String
  /// The host's target triple.
  public var triple: String
  /// The Swift modules that make up the ABI (`Apiary`, …): a plugin must not define them.
  public var abiModules: [String]
  /// The processor the host runs on.
  public var machine: ELFMachine
  /// Names (`DT_NEEDED` names or sonames, like `libswiftCore.so`) of libraries the host process
  /// has already loaded and that are not contract libraries: the Swift runtime, libc,
  /// `libApiary.so`. The loader binds a plugin's need for such a name to the loaded copy, so the
  /// gate does not look for it on disk. An array, searched: a `Set` type new to the process
  /// costs a metadata instantiation on the first load (BENCHMARKS.md, "Plugins").
  public var loadedLibraries: [String] {
    didSet { loadedLibraryKeys = loadedLibraries.map { Self.key(of: $0.utf8) } }
  }
  /// A hash of each of ``loadedLibraries``, at the same position: a plugin needs a dozen of
  /// them, and comparing numbers first is faster than comparing each name with every string.
  /// `Int`s, not `UInt64`s: an array type the gate makes anyway (BENCHMARKS.md, "Plugins").
  private(set) var loadedLibraryKeys: [Int]

  /// Collects the host's facts; `machine` defaults to the one this code runs on.
  ///
  /// ```swift
  /// let facts = HostFacts(
  ///   apiaryVersion: SemanticVersion(1, 0, 0), abiHash: "ab", compiler: "c", triple: "t",
  ///   abiModules: ["Apiary"], machine: .aarch64)
  /// ```
  public init(
    apiaryVersion: SemanticVersion, abiHash: String, compiler: String, triple: String,
    abiModules: [String], machine: ELFMachine = .host, loadedLibraries: [String] = []
  ) {
    self.apiaryVersion = apiaryVersion
    self.abiHash = abiHash
    self.compiler = compiler
    self.triple = triple
    self.abiModules = abiModules
    self.machine = machine
    self.loadedLibraries = loadedLibraries
    loadedLibraryKeys = loadedLibraries.map { Self.key(of: $0.utf8) }
  }

  /// Whether `name` (a `DT_NEEDED` name) is one of ``loadedLibraries``.
  func hasLoaded(_ name: String) -> Bool {
    let key = Self.key(of: name.utf8)
    for (position, known) in loadedLibraryKeys.enumerated() where known == key {
      // Bytes, as the loader compares names (see `GateRun.position(of:)`).
      if loadedLibraries[position].utf8.elementsEqual(name.utf8) { return true }
    }
    return false
  }

  /// The 64-bit FNV-1a hash of `bytes`.
  static func key<Bytes: Sequence<UInt8>>(of bytes: Bytes) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    return Int(truncatingIfNeeded: hash)
  }
}
