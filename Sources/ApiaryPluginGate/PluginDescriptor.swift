/// A plugin's descriptor: the `apiary_plugin` section of its library, read without running it.
///
/// The section holds UTF-8 lines of `key value` (one space after the key), ended by a NUL byte.
/// Apiary's header writes `descriptor`, `apiary`, `abi`, `compiler` and `triple`; the plugin
/// author writes `plugin`, `version`, and any number of `module`, `target` and `requires` lines.
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
  /// The line of each single-valued key (`abi`, `version`, …), for messages.
  public let lines: [String: Int]

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
    var parser = Parser(file: file)
    return parser.parse(section)
  }

  fileprivate init(values: [String: (value: String, line: Int)], lists: Lists, text: String)
    throws(Missing)
  {
    func value(_ key: String) throws(Missing) -> String {
      guard let entry = values[key] else { throw Missing() }
      return entry.value
    }
    guard let format = Int(try value("descriptor")),
      let version = try? SemanticVersion(try value("version")),
      let apiary = try? SemanticVersion(try value("apiary"))
    else { throw Missing() }
    self.format = format
    self.version = version
    self.apiary = apiary
    plugin = try value("plugin")
    abi = try value("abi")
    compiler = try value("compiler")
    triple = try value("triple")
    modules = lists.modules
    targets = lists.targets
    requires = lists.requires
    self.text = text
    lines = values.mapValues(\.line)
  }

  fileprivate struct Missing: Error {}

  fileprivate struct Lists {
    var modules: [String] = []
    var targets: [String] = []
    var requires: [Requirement] = []
  }

  private struct Parser {
    static let singleKeys = [
      "descriptor", "apiary", "abi", "compiler", "triple", "plugin", "version",
    ]
    static let listKeys = ["module", "target", "requires"]

    let file: String
    var problems: [PluginProblem] = []

    init(file: String) { self.file = file }

    mutating func problem(
      _ line: Int?, _ field: String?, _ message: String? = nil, expected: String? = nil,
      found: String? = nil, hint: String? = nil
    ) {
      problems.append(
        PluginProblem(
          .malformedDescriptor, file: file, field: field, line: line, message: message,
          expected: expected, found: found, hint: hint))
    }

    mutating func parse(_ section: [UInt8]) -> (PluginDescriptor?, [PluginProblem]) {
      guard let end = section.firstIndex(of: 0) else {
        problem(
          nil, PluginDescriptor.sectionName, "the descriptor is not NUL-terminated",
          hint: "write it with the APIARY_PLUGIN macro of ApiaryPlugin.h")
        return (nil, problems)
      }
      if section[(end + 1)...].contains(where: { $0 != 0 }) {
        problem(
          nil, PluginDescriptor.sectionName, "the section holds more than one descriptor",
          hint: "a library may have exactly one APIARY_PLUGIN; was a second descriptor linked in?")
      }
      var text = ""
      if let decoded = String(validating: section[..<end], as: UTF8.self) {
        text = decoded
      } else {
        problem(nil, PluginDescriptor.sectionName, "the descriptor is not valid UTF-8")
        return (nil, problems)
      }
      var values: [String: (value: String, line: Int)] = [:]
      var lists = Lists()
      for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let line = index + 1
        guard !rawLine.isEmpty else { continue }
        guard let space = rawLine.firstIndex(of: " ") else {
          problem(line, nil, expected: "'key value'", found: "'\(rawLine)'")
          continue
        }
        let key = String(rawLine[..<space])
        let value = String(rawLine[rawLine.index(after: space)...])
        guard !value.isEmpty, value.first != " " else {
          problem(line, key, expected: "one space, then a value", found: "'\(rawLine)'")
          continue
        }
        if Self.singleKeys.contains(key) {
          if let first = values[key] {
            problem(
              line, key, "repeated (first on line \(first.line))",
              hint: "'\(key)' may appear once")
            continue
          }
          values[key] = (value, line)
          check(key, value, line)
        } else if key == "module" || key == "target" {
          if checkTypeName(key, value, line) {
            if key == "module" { lists.modules.append(value) } else { lists.targets.append(value) }
          }
        } else if key == "requires" {
          if let requirement = requirement(value, line) {
            if let earlier = lists.requires.first(where: { $0.name == requirement.name }) {
              problem(
                line, key, "'\(requirement.name)' is already required on line \(earlier.line)",
                hint: "write all of its bounds on one line, like '>=1.0.0 <2.0.0'")
            } else {
              lists.requires.append(requirement)
            }
          }
        } else {
          problem(
            line, key, "unknown key",
            hint: "known keys: \((Self.singleKeys + Self.listKeys).joined(separator: ", "))")
        }
      }
      for key in Self.singleKeys where values[key] == nil {
        problem(
          nil, key, "missing", expected: "a line '\(key) …'",
          hint: ["plugin", "version"].contains(key)
            ? "add it to the plugin's APIARY_PLUGIN text"
            : "written by ApiaryPlugin.h; build the plugin with Apiary's header")
      }
      let descriptor = try? PluginDescriptor(values: values, lists: lists, text: text)
      return (descriptor, problems)
    }

    mutating func check(_ key: String, _ value: String, _ line: Int) {
      switch key {
      case "descriptor":
        if Int(value) == nil {
          problem(line, key, expected: "a format number like 1", found: "'\(value)'")
        }
      case "apiary", "version":
        do throws(VersionSyntaxError) {
          _ = try SemanticVersion(value)
        } catch {
          problem(line, key, "'\(value)' is not a SemVer version: \(error.reason)")
        }
      case "abi":
        if !value.allSatisfy(\.isHexDigit) {
          problem(line, key, expected: "a hexadecimal hash", found: "'\(value)'")
        }
      case "plugin":
        if value.contains(" ") {
          problem(line, key, expected: "a name without spaces", found: "'\(value)'")
        }
      default:
        break
      }
    }

    mutating func checkTypeName(_ key: String, _ value: String, _ line: Int) -> Bool {
      let parts = value.split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty && !$0.contains(" ") }) else {
        problem(
          line, key, expected: "a Swift type name with its module, like NotesPlugin.NotesModule",
          found: "'\(value)'")
        return false
      }
      return true
    }

    mutating func requirement(_ value: String, _ line: Int) -> Requirement? {
      guard let space = value.firstIndex(of: " ") else {
        problem(
          line, "requires",
          expected: "'requires <name> <range>', like 'requires NotebookKit ^1.0.0'",
          found: "'requires \(value)'")
        return nil
      }
      let name = String(value[..<space])
      do throws(VersionSyntaxError) {
        let range = try VersionRange(String(value[value.index(after: space)...]))
        return Requirement(name: name, range: range, line: line)
      } catch {
        problem(line, "requires", "\(error)")
        return nil
      }
    }
  }
}
