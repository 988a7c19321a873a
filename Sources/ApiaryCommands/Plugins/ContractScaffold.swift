import ApiaryPluginGate
import ApiaryTooling

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `apiary plugin new NAME [DIR] --contract`: a contract library package, the types several
/// plugins share (like the sample's `NotebookKit`), built as one shared library so that each type
/// exists once in the process; and what a plugin scaffolded with `--uses DIR` needs to know of
/// one.
///
/// It writes `Package.swift` (a `.dynamic` library product `NAME`, depending on Apiary by path),
/// `Sources/NAME/NAME.swift` (a value type `Greeting` and a protocol `Greeter`), the descriptor
/// (a contract library: no module, no target, no entry point) and a `.gitignore`. No manifest:
/// no manifest names a contract library; the host finds it as the loader does, through the
/// plugins that need it.
enum ContractScaffold {
  /// A contract library package a plugin depends on.
  struct Package: Equatable {
    /// Its library product and module: the `X` of `Sources/X` and `Sources/XDescriptor`.
    let name: String
    /// Its absolute directory, as the plugin's `Package.swift` names it.
    let path: String
    /// The package identity SwiftPM gives a dependency by path: its directory's name.
    let identity: String
    /// What a plugin requires of it: its descriptor's version up to the next incompatible one.
    let range: String
  }

  /// The version a scaffolded package starts at.
  static let version = "0.1.0"

  /// The versions compatible with `version` by SemVer, which the load gate reads: `1.2.0` →
  /// `>=1.2.0 <2.0.0`, and, as 0.x versions break at each minor, `0.1.0` → `>=0.1.0 <0.2.0`;
  /// nil for what is not a version.
  static func range(from text: String) -> String? {
    guard let version = try? SemanticVersion(text) else { return nil }
    let next = version.major > 0 ? "\(version.major + 1).0.0" : "0.\(version.minor + 1).0"
    return ">=\(version) <\(next)"
  }

  /// The lines of a descriptor written in C: its string literals joined, outside comments, and
  /// split at each `\n` escape. `APIARY_PLUGIN("plugin X\n" "version 1.0.0\n")` has the lines
  /// `plugin X` and `version 1.0.0`.
  static func descriptorLines(_ source: String) -> [Substring] {
    var text = ""
    var (inString, escaped, previous) = (false, false, Character(" "))
    var comment: Character?  // "/" for a line comment, "*" for a block comment
    for character in source {
      defer { previous = character }
      switch (comment, inString) {
      case ("/"?, _): if character == "\n" { comment = nil }
      case ("*"?, _): if previous == "*" && character == "/" { comment = nil }
      case (_, true) where escaped:
        text.append(character == "n" ? "\n" : character)
        escaped = false
      case (_, true):
        if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        } else {
          text.append(character)
        }
      default:
        if character == "\"" {
          inString = true
        } else if previous == "/" && (character == "/" || character == "*") {
          comment = character
        }
      }
    }
    return text.split(separator: "\n")
  }

  /// Why a plugin `name` in `directory` cannot use `kit`: SwiftPM refuses two targets of one
  /// name in a package graph, and names a package by its folder, whatever the case.
  static func clash(plugin name: String, in directory: String, with kit: Package) -> String? {
    let theirs = [kit.name, kit.name + "Descriptor"]
    if let target = [name, name + "Descriptor"].first(where: { mine in
      theirs.contains { $0.lowercased() == mine.lowercased() }
    }) {
      return "--uses \(kit.path): plugin name '\(name)' makes a target '\(target)', which the "
        + "contract library package has too; choose another name"
    }
    let folder = URL(fileURLWithPath: PluginScaffold.absolute(directory)).lastPathComponent
    guard folder.lowercased() != kit.identity.lowercased() else {
      return "--uses \(kit.path): the plugin's folder '\(folder)' has the contract library "
        + "package's folder name, which SwiftPM names both packages by; choose another DIR"
    }
    return nil
  }

  /// The contract library package at `directory` (`--uses`), or why it is not one.
  static func package(at directory: String) throws(UsageError) -> Package {
    let path = PluginScaffold.absolute(directory)
    let sources = URL(fileURLWithPath: path).appendingPathComponent("Sources")
    let manager = FileManager.default
    let manifest = URL(fileURLWithPath: path).appendingPathComponent("Package.swift")
    guard manager.fileExists(atPath: manifest.path) else {
      throw UsageError(
        "--uses \(directory): no Package.swift there; expected a contract library package "
          + "('apiary plugin new NAME --contract' writes one)")
    }
    let targets = (try? manager.contentsOfDirectory(atPath: sources.path)) ?? []
    let names = targets.filter { targets.contains($0 + "Descriptor") }.sorted()
    guard names.count == 1, let name = names.first else {
      throw UsageError(
        "--uses \(directory): expected one library target X with its descriptor target "
          + "XDescriptor in Sources/, found \(names.isEmpty ? "none" : names.joined(separator: ", "))"
      )
    }
    let descriptor = sources.appendingPathComponent("\(name)Descriptor/descriptor.c")
    let lines = descriptorLines((try? String(contentsOf: descriptor, encoding: .utf8)) ?? "")
    if lines.contains(where: { $0.hasPrefix("module ") || $0.hasPrefix("target ") }) {
      throw UsageError(
        "--uses \(directory): '\(name)' is a plugin, not a contract library: its descriptor "
          + "exports modules or targets")
    }
    let version = lines.first { $0.hasPrefix("version ") }.map { String($0.dropFirst(8)) }
    guard let version, let range = range(from: version) else {
      throw UsageError(
        "--uses \(directory): "
          + (version.map { "'version \($0)' is not a SemVer version" } ?? "no 'version' line")
          + " in \(descriptor.path)")
    }
    let identity = URL(fileURLWithPath: path).lastPathComponent
    return Package(name: name, path: path, identity: identity, range: range)
  }

  static func contents(name: String, apiary: String) -> [(String, String)] {
    let summary = """
      /// A contract library: the types the plugins that use it share. A shared library loaded
      /// once, so each of its types is one type in the whole process.

      """
    return PluginScaffold.packageFiles(name: name, apiary: apiary, summary: summary) + [
      (
        "Sources/\(name)/\(name).swift",
        """
        /// A greeting, as the plugins that use this library pass it between them.
        public struct Greeting: Sendable, Hashable, Codable {
          public var text: String

          public init(to name: String, from plugin: String) {
            text = "Hello, \\(name), from \\(plugin)"
          }
        }

        /// A service one plugin binds (`context.container.register(Greeter.self, …)` in its
        /// module's `setUp`) and others resolve by this protocol.
        public protocol Greeter: Sendable {
          func greet(_ name: String) -> Greeting
        }

        """
      ),
      (
        "Sources/\(name)Descriptor/descriptor.c",
        """
        #include <ApiaryPlugin.h>

        // A contract library: no modules, no targets, no entry point.
        APIARY_PLUGIN(
          "plugin \(name)\\n"
          "version \(version)\\n"
          "requires apiary >=0.1.0 <0.2.0\\n")

        """
      ),
    ]
  }
}
