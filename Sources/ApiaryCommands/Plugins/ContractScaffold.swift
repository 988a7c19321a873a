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

  /// The versions compatible with `version` by SemVer: `1.2.0` → `>=1.2.0 <2.0.0`, and, as
  /// 0.x versions break at each minor, `0.1.0` → `>=0.1.0 <0.2.0`; nil for what is not
  /// `MAJOR.MINOR.PATCH`.
  static func range(from version: String) -> String? {
    let parts = version.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
    guard parts.count == 3, let major = parts[0], let minor = parts[1], parts[2] != nil else {
      return nil
    }
    let next = major > 0 ? "\(major + 1).0.0" : "0.\(minor + 1).0"
    return ">=\(version) <\(next)"
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
    // The descriptor's C string pieces: `"version 0.1.0\n"` is `version 0.1.0\n`.
    let pieces = ((try? String(contentsOf: descriptor, encoding: .utf8)) ?? "")
      .split(separator: "\"").map { $0.prefix { $0 != "\\" } }
    if pieces.contains(where: { $0.hasPrefix("module ") || $0.hasPrefix("target ") }) {
      throw UsageError(
        "--uses \(directory): '\(name)' is a plugin, not a contract library: its descriptor "
          + "exports modules or targets")
    }
    let version = pieces.first { $0.hasPrefix("version ") }.map { String($0.dropFirst(8)) }
    guard let version, let range = range(from: version) else {
      throw UsageError(
        "--uses \(directory): no 'version MAJOR.MINOR.PATCH' line in \(descriptor.path)")
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
