/// A plugin's descriptor: the `apiary_plugin` section of its library, read without running it.
///
/// The section holds UTF-8 lines of `key value` (one space after the key), ended by a NUL byte.
/// Apiary's header writes `descriptor`, `apiary`, `abi`, `compiler`, `triple` and
/// `configuration` (optional: `debug` or `release`, informational); the plugin author writes `plugin`, `version`, and any number of `module`, `target` and `requires` lines.
///
/// ```swift
/// let text = """
///   descriptor 1
///   apiary 1.4.0
///   abi 3f2a9c
///   compiler Clang 17.0.0
///   triple x86_64-unknown-linux-gnu
///   plugin notes
///   version 1.0.0
///   module NotesPlugin.NotesModule
///   requires NotebookKit >=1.0.0 <2.0.0
///   """
/// let (descriptor, problems) = PluginDescriptor.parse(Array(text.utf8) + [0], file: "libNotes.so")
/// assert(problems.isEmpty && descriptor?.requires.first?.name == "NotebookKit")
/// ```
public struct PluginDescriptor: Sendable, Hashable {
  /// One `requires` line: another plugin or contract library (or `apiary`) and a range.
  public struct Requirement: Sendable, Hashable {
    /// The plugin name, contract library module name, or `apiary`.
    public let name: String
    /// The versions that satisfy it.
    public let range: VersionRange
    /// Its line in the descriptor.
    public let line: Int
  }

  /// The ELF section that holds the descriptor.
  public static let sectionName = "apiary_plugin"
  /// The descriptor format this host reads.
  public static let format = 1

  /// The descriptor format (`descriptor` line).
  public let format: Int
  /// The plugin's name; for a contract library, its Swift module name.
  public let plugin: String
  /// The plugin's version.
  public let version: SemanticVersion
  /// The Apiary version it was compiled against.
  public let apiary: SemanticVersion
  /// The hash of the Apiary ABI it was compiled against.
  public let abi: String
  /// The C `__VERSION__` of the toolchain that compiled it.
  public let compiler: String
  /// The target triple it was compiled for.
  public let triple: String
  /// The module types it exports (`NotesPlugin.NotesModule`).
  public let modules: [String]
  /// The target types it exports.
  public let targets: [String]
  /// What it requires, in order.
  public let requires: [Requirement]
  /// The descriptor text as written (without the NUL).
  public let text: String
  /// The line of each single-valued key, in `Parser.singleKeys` order, 0 for a key not written
  /// (plain `[Int]`: an array of optionals costs a metadata instantiation in a fresh process).
  private let keyLines: [Int]
  /// The build configuration it was compiled in, `debug` or `release` (nil when the descriptor
  /// does not say). The host notes a difference from its own; it does not refuse it.
  public let configuration: String?

  /// The line of a single-valued key (`abi`, `version`, …), for messages.
  ///
  /// ```swift
  /// let line = descriptor.line(of: "abi")  // 3
  /// ```
  public func line(of key: String) -> Int? {
    Parser.singleKeys.firstIndex(of: key).flatMap { keyLines[$0] > 0 ? keyLines[$0] : nil }
  }

  /// Whether this is a contract library: a descriptor that exports no module and no target.
  public var isContractLibrary: Bool { modules.isEmpty && targets.isEmpty }

  /// Parses the bytes of an `apiary_plugin` section. Returns every problem (each with its line
  /// and key), and the descriptor when all required keys are present and valid; unknown or
  /// repeated keys are problems but do not stop the rest from being read.
  ///
  /// ```swift
  /// let (descriptor, problems) = PluginDescriptor.parse(bytes, file: "/plugins/libNotes.so")
  /// ```
  public static func parse(_ section: [UInt8], file: String) -> (
    descriptor: PluginDescriptor?, problems: [PluginProblem]
  ) {
    parse(section[...], file: file)
  }

  /// Parses the section as the gate read it: a slice of the library's bytes.
  static func parse(_ section: ArraySlice<UInt8>, file: String) -> (
    descriptor: PluginDescriptor?, problems: [PluginProblem]
  ) {
    var parser = Parser(file: file)
    guard let text = parser.parse(section) else { return (nil, parser.problems) }
    return (try? PluginDescriptor(&parser, text: text), parser.problems)
  }

  /// Takes the parser's arrays over: copies of them go through their metadata, new to a fresh
  /// process (BENCHMARKS.md, "Plugins").
  private init(_ parser: inout Parser, text: String) throws(Missing) {
    guard let format = parser.format, parser.parsedVersions == 3,
      let abi = parser.value(2), let compiler = parser.value(3), let triple = parser.value(4),
      let plugin = parser.value(5)
    else { throw Missing() }
    self.format = format
    self.version = parser.version
    self.apiary = parser.apiary
    self.plugin = plugin
    self.abi = abi
    self.compiler = compiler
    self.triple = triple
    modules = Self.take(&parser.modules)
    targets = Self.take(&parser.targets)
    requires = Self.take(&parser.requires)
    self.text = text
    configuration = parser.value(7)
    keyLines = Self.take(&parser.lines)
  }

  private struct Missing: Error {}

  /// `array`'s elements, leaving it empty.
  private static func take<Element>(_ array: inout [Element]) -> [Element] {
    var taken: [Element] = []
    swap(&taken, &array)
    return taken
  }

  /// Reads the descriptor's bytes line by line, without per-character string work.
  private struct Parser {
    static let singleKeys = [
      "descriptor", "apiary", "abi", "compiler", "triple", "plugin", "version", "configuration",
    ]
    /// Single keys a descriptor may leave out.
    static let optionalKeys = ["configuration"]
    static let listKeys = ["module", "target", "requires"]

    let file: String
    var problems: [PluginProblem] = []
    /// The value and line of each of `singleKeys`, in that order; line 0 for a key not seen
    /// (plain arrays: an array of optional tuples costs a metadata instantiation).
    var values = [String](repeating: "", count: singleKeys.count)
    var lines = [Int](repeating: 0, count: singleKeys.count)
    var format: Int?
    /// The `version` and `apiary` lines; ``parsedVersions`` adds 1 once `version` parsed and 2
    /// once `apiary` did (not optionals: a copy of an optional struct costs a metadata lookup
    /// per call site the first time a process runs it, BENCHMARKS.md "Plugins").
    var version = SemanticVersion(0, 0, 0)
    var apiary = SemanticVersion(0, 0, 0)
    var parsedVersions = 0
    var modules: [String] = []
    var targets: [String] = []
    var requires: [Requirement] = []

    init(file: String) { self.file = file }

    /// The value of single key `slot`, nil when it was not written.
    func value(_ slot: Int) -> String? { lines[slot] > 0 ? values[slot] : nil }

    mutating func problem(
      _ line: Int?, _ field: String?, _ message: String? = nil, expected: String? = nil,
      found: String? = nil, hint: String? = nil
    ) {
      problems.append(
        PluginProblem(
          .malformedDescriptor, file: file, field: field, line: line, message: message,
          expected: expected, found: found, hint: hint))
    }

    /// Reads every line; returns the text, or nil when the section is not a descriptor text.
    mutating func parse(_ section: ArraySlice<UInt8>) -> String? {
      guard let end = section.firstIndex(of: 0, in: section.indices) else {
        problem(
          nil, PluginDescriptor.sectionName, "the descriptor is not NUL-terminated",
          hint: "write it with the APIARY_PLUGIN macro of ApiaryPlugin.h")
        return nil
      }
      if section[(end + 1)...].contains(where: { $0 != 0 }) {
        problem(
          nil, PluginDescriptor.sectionName, "the section holds more than one descriptor",
          hint: "a library may have exactly one APIARY_PLUGIN; was a second descriptor linked in?")
      }
      // Decoding repairs invalid UTF-8 with U+FFFD, so the text equals the bytes only when they
      // are valid (`String(validating:)` is generic: a witness table lookup in a fresh process).
      // ASCII, what the header writes, is valid as it is; only other text is compared back, which
      // walks the string a scalar at a time.
      let text = String(decoding: section[..<end], as: UTF8.self)
      guard section[..<end].allSatisfy({ $0 < 0x80 }) || text.utf8.elementsEqual(section[..<end])
      else {
        problem(nil, PluginDescriptor.sectionName, "the descriptor is not valid UTF-8")
        return nil
      }
      var start = section.startIndex
      var line = 0
      while start < end {
        let stop = section.firstIndex(of: 0x0a, in: start..<end) ?? end
        line += 1
        read(section[start..<stop], line: line)
        start = stop + 1
      }
      for (slot, key) in Self.singleKeys.enumerated()
      where lines[slot] == 0 && !Self.optionalKeys.contains(key) {
        problem(
          nil, key, "missing", expected: "a line '\(key) …'",
          hint: ["plugin", "version"].contains(key)
            ? "add it to the plugin's APIARY_PLUGIN text"
            : "written by ApiaryPlugin.h; build the plugin with Apiary's header")
      }
      return text
    }

    /// One line: `key value`, with exactly one space after the key.
    mutating func read(_ bytes: ArraySlice<UInt8>, line: Int) {
      guard !bytes.isEmpty else { return }
      guard let space = bytes.firstIndex(of: 0x20) else {
        problem(
          line, nil, expected: "'key value'", found: "'\(String(decoding: bytes, as: UTF8.self))'")
        return
      }
      let key = String(decoding: bytes[..<space], as: UTF8.self)
      let rest = bytes[(space + 1)...]
      guard let first = rest.first, first != 0x20 else {
        problem(
          line, key, expected: "one space, then a value",
          found: "'\(String(decoding: bytes, as: UTF8.self))'")
        return
      }
      let value = String(decoding: rest, as: UTF8.self)
      switch key {
      case "descriptor", "apiary", "abi", "compiler", "triple", "plugin", "version",
        "configuration":
        let slot = Self.singleKeys.firstIndex(of: key) ?? 0
        if lines[slot] > 0 {
          problem(
            line, key, "repeated (first on line \(lines[slot]))", hint: "'\(key)' may appear once")
          return
        }
        (values[slot], lines[slot]) = (value, line)
        check(key, value, rest, line)
      case "module", "target":
        guard Self.isTypeName(rest) else {
          problem(
            line, key, expected: "a Swift type name with its module, like NotesPlugin.NotesModule",
            found: "'\(value)'")
          return
        }
        if key == "module" { modules.append(value) } else { targets.append(value) }
      case "requires":
        guard let requirement = requirement(rest, line) else { return }
        if let earlier = requires.first(where: { $0.name == requirement.name }) {
          problem(
            line, key, "'\(requirement.name)' is already required on line \(earlier.line)",
            hint: "write all of its bounds on one line, like '>=1.0.0 <2.0.0'")
        } else {
          requires.append(requirement)
        }
      default:
        problem(
          line, key, "unknown key",
          hint: "known keys: \((Self.singleKeys + Self.listKeys).joined(separator: ", "))")
      }
    }

    mutating func check(_ key: String, _ value: String, _ bytes: ArraySlice<UInt8>, _ line: Int) {
      switch key {
      case "descriptor":
        format = Int(value)
        if format == nil {
          problem(line, key, expected: "a format number like 1", found: "'\(value)'")
        }
      case "apiary", "version":
        do throws(VersionSyntaxError) {
          let parsed = try SemanticVersion(utf8: bytes)
          if key == "apiary" { apiary = parsed } else { version = parsed }
          parsedVersions |= key == "apiary" ? 2 : 1
        } catch {
          problem(line, key, "'\(value)' is not a SemVer version: \(error.reason)")
        }
      case "abi":
        if !bytes.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) }) {
          problem(line, key, expected: "a hexadecimal hash", found: "'\(value)'")
        }
      case "configuration":
        if value != "debug" && value != "release" {
          problem(line, key, expected: "debug or release", found: "'\(value)'")
        }
      case "plugin":
        if bytes.contains(0x20) {
          problem(line, key, expected: "a name without spaces", found: "'\(value)'")
        }
      default:
        break
      }
    }

    /// `Module.Type` (or deeper): dot-separated non-empty parts, no spaces or control characters.
    static func isTypeName(_ bytes: ArraySlice<UInt8>) -> Bool {
      bytes.contains(0x2e) && !bytes.contains { $0 <= 0x20 || $0 == 0x7f }
        && bytes.first != 0x2e && bytes.last != 0x2e
        && !zip(bytes, bytes.dropFirst()).contains { $0 == 0x2e && $1 == 0x2e }
    }

    /// A `requires` line's value: a name, one space, a range.
    mutating func requirement(_ bytes: ArraySlice<UInt8>, _ line: Int) -> Requirement? {
      guard let space = bytes.firstIndex(of: 0x20) else {
        problem(
          line, "requires",
          expected: "'requires <name> <range>', like 'requires NotebookKit ^1.0.0'",
          found: "'requires " + String(decoding: bytes, as: UTF8.self) + "'")
        return nil
      }
      do throws(VersionSyntaxError) {
        let range = try VersionRange(utf8: bytes[(space + 1)...])
        return Requirement(
          name: String(decoding: bytes[..<space], as: UTF8.self), range: range, line: line)
      } catch {
        problem(line, "requires", "\(error)")
        return nil
      }
    }
  }
}
