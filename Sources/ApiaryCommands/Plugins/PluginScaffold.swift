import ApiarySupport
import ApiaryTooling

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `apiary plugin new NAME [DIR]`: a plugin package that builds and loads as it is.
///
/// It writes `Package.swift` (a `.dynamic` library product `NAME`, depending on Apiary by
/// path), the module `NAME.NAMEModule`, the target `NAME.NAMETarget` with one remote action
/// `hello`, the entry point, the descriptor, `NAME.json`, the module manifest naming the
/// release build of the library, and a `.gitignore` for the build folder. With `--uses KIT`,
/// the plugin depends on the contract library package at `KIT` and requires it; with
/// `--contract`, the package is a contract library instead (``ContractScaffold``).
enum PluginScaffold {
  /// What the package is: a plugin (using a contract library, or none), or a contract library.
  enum Kind {
    case plugin(uses: ContractScaffold.Package?)
    case contract
  }

  static func write(name: String, to directory: String, apiary: String?, kind: Kind) -> Int32 {
    guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
      name.unicodeScalars.allSatisfy({
        $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0)
      })
    else {
      StandardError.print(
        "error: plugin name '\(name)' must be an ASCII letter followed by letters and digits")
      return ExitStatus.failure
    }
    guard !toolchainModules.contains(name) else {
      StandardError.print(
        "error: plugin name '\(name)' is the name of a module of the Swift toolchain, which the "
          + "plugin's target would clash with; choose another name")
      return ExitStatus.failure
    }
    guard let apiary = apiary.map(absolute) ?? apiaryPackage() else {
      StandardError.print(
        "error: cannot find the Apiary package this host was built from; pass --apiary PATH")
      return ExitStatus.failure
    }
    guard isApiaryPackage(apiary) else {
      StandardError.print(
        "error: --apiary \(apiary): not the Apiary package; expected a directory with "
          + Self.header)
      return ExitStatus.failure
    }
    let manager = FileManager.default
    // SwiftPM refuses two targets of one name in a package graph.
    let taken = [name, name + "Descriptor"].first { target in
      manager.fileExists(
        atPath: URL(fileURLWithPath: apiary).appendingPathComponent("Sources/\(target)").path)
    }
    if let taken {
      StandardError.print(
        "error: plugin name '\(name)' makes a target '\(taken)', which the Apiary package "
          + "already has; choose another name")
      return ExitStatus.failure
    }
    guard !manager.fileExists(atPath: directory) else {
      StandardError.print("error: \(directory) already exists; choose another DIR")
      return ExitStatus.failure
    }
    let files =
      kind.isContract
      ? ContractScaffold.contents(name: name, apiary: apiary)
      : contents(name: name, apiary: apiary, uses: kind.usedContract)
    do {
      for (path, text) in files {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(path)
        try manager.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
      }
    } catch {
      StandardError.print("error: cannot write \(directory): \(FileFailure.reason(error))")
      return ExitStatus.failure
    }
    let next =
      kind.isContract
      ? """
      wrote contract library package \(name) in \(directory)
      use it:     apiary plugin new PLUGIN --uses \(directory)
                  (or, in a plugin package: depend on it by path, add its product '\(name)' to
                  the plugin's target and 'requires \(name) \(ContractScaffold.range(from: ContractScaffold.version) ?? "")' to its descriptor)
      """
      : """
      wrote plugin package \(name) in \(directory)
      build it:   swift build -c release --package-path \(directory)
      load it:    add \(directory)/\(name).json to the application's "modules" (or ':load' it in 'apiary run')
      call it:    apiary call 'SCHEME://\(name.lowercased())/hello?name=you'
      """
    Output.out(lines: next.split(separator: "\n").map(String.init))
    return ExitStatus.success
  }

  /// The Apiary package this host was built from: the nearest ancestor of the executable that
  /// holds ``header``.
  static func apiaryPackage() -> String? {
    guard
      let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    else { return nil }
    var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
    while directory.path != "/" {
      if isApiaryPackage(directory.path) { return directory.path }
      directory.deleteLastPathComponent()
    }
    return nil
  }

  /// The file that tells the Apiary package's directory.
  static let header = "Sources/ApiaryPlugin/include/ApiaryPlugin.h"

  /// The Swift toolchain's modules a plugin name could spell (on Linux and Apple platforms): a
  /// target of that name does not build ("circular dependency between modules 'Dispatch' and
  /// 'ApiarySupport'"), or shadows the module for whatever imports it.
  private static let toolchainModules: Set<String> = [
    "Block", "CoreFoundation", "Cxx", "CxxStdlib", "Darwin", "Dispatch", "Distributed",
    "Foundation", "FoundationEssentials", "FoundationInternationalization",
    "FoundationNetworking", "FoundationXML", "Glibc", "Musl", "Observation", "RegexBuilder",
    "Runtime", "Swift", "SwiftGlibc", "SwiftOnoneSupport", "Synchronization", "Testing", "WinSDK",
    "XCTest", "os",
  ]

  static func isApiaryPackage(_ directory: String) -> Bool {
    FileManager.default.fileExists(
      atPath: URL(fileURLWithPath: directory).appendingPathComponent(header).path)
  }

  /// `path` from the working directory, since the package's manifest resolves a relative
  /// dependency path from its own directory.
  static func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// The `.gitignore` and `Package.swift` of package `name`: one `.dynamic` library product
  /// `name` of the targets `name` and `nameDescriptor`, depending on Apiary at `apiary` and, for
  /// a plugin that uses one, on the contract library package `kit` by path. `summary` (doc
  /// comment lines) goes above the package.
  static func packageFiles(
    name: String, apiary: String, uses kit: ContractScaffold.Package? = nil, summary: String = ""
  ) -> [(String, String)] {
    let kitDependency = kit.map { ", .package(path: \(WrapperGenerator.literal($0.path)))" } ?? ""
    let kitProduct =
      kit.map {
        ", .product(name: \(WrapperGenerator.literal($0.name)), package: "
          + "\(WrapperGenerator.literal($0.identity)))"
      } ?? ""
    return [
      (".gitignore", ".build/\nPackage.resolved\n"),
      (
        "Package.swift",
        """
        // swift-tools-version:6.0
        import PackageDescription

        \(summary)let package = Package(
          name: "\(name)",
          platforms: [.macOS(.v15)],
          products: [
            .library(name: "\(name)", type: .dynamic, targets: ["\(name)", "\(name)Descriptor"])
          ],
          dependencies: [.package(name: "Apiary", path: \(WrapperGenerator.literal(apiary)))\(kitDependency)],
          targets: [
            .target(name: "\(name)", dependencies: [.product(name: "Apiary", package: "Apiary")\(kitProduct)]),
            .target(
              name: "\(name)Descriptor", dependencies: [.product(name: "Apiary", package: "Apiary")],
              publicHeadersPath: "."),
          ],
          swiftLanguageModes: [.v6]
        )

        """
      ),
    ]
  }

  static func contents(name: String, apiary: String, uses kit: ContractScaffold.Package? = nil)
    -> [(String, String)]
  {
    let lower = name.lowercased()
    let kitImport = kit.map { "import \($0.name)\n" } ?? ""
    let greeting =
      kit.map { "\($0.name).Greeting(to: try params.string(\"name\"), from: \"\(name)\").text" }
      ?? "\"Hello, \\(try params.string(\"name\")), from \(name)\""
    let requires = kit.map { "\n  \"requires \($0.name) \($0.range)\\n\"" } ?? ""
    return packageFiles(name: name, apiary: apiary, uses: kit) + [
      (
        "Sources/\(name)/\(name)Module.swift",
        """
        import Apiary

        /// The `\(lower)` module. Register services, targets' dependencies and event handlers
        /// in `setUp`; everything registered through the context is removed with the module.
        final class \(name)Module: Module {
          init() {}

          func setUp(_ context: ModuleContext) throws {}
        }

        """
      ),
      (
        "Sources/\(name)/\(name)Target.swift",
        """
        import Apiary
        \(kitImport)
        /// The `\(lower)` target: `hello` answers a greeting (remote: callable by URL).
        final class \(name)Target: Target {
          init(context: ModuleContext) throws {}

          static let actions: ActionTable<\(name)Target> = [
            "hello": .sync { _, params in \(greeting) }
          ]
        }

        """
      ),
      (
        "Sources/\(name)/PluginEntry.swift",
        """
        import Apiary

        /// What the host loads from this library: its module and target types.
        @_cdecl("apiary_plugin_entry")
        public func apiaryPluginEntry() -> UnsafeMutableRawPointer {
          PluginExports(modules: \(name)Module.self, targets: \(name)Target.self).retained()
        }

        """
      ),
      (
        "Sources/\(name)Descriptor/descriptor.c",
        """
        #include <ApiaryPlugin.h>

        APIARY_PLUGIN(
          "plugin \(name)\\n"
          "version 0.1.0\\n"
          "module \(name).\(name)Module\\n"
          "target \(name).\(name)Target\\n"
          "requires apiary >=0.1.0 <0.2.0\\n"\(requires))

        """
      ),
      (
        "\(name).json",
        """
        {
          "schemaVersion": 1,
          "modules": [
            {
              "name": "\(lower)",
              "type": "\(name).\(name)Module",
              "library": ".build/release/lib\(name).so",
              "version": "0.1.0",
              "targets": [
                {
                  "name": "\(lower)",
                  "type": "\(name).\(name)Target",
                  "actions": [
                    { "name": "hello", "remote": true, "returns": "string",
                      "parameters": [ { "name": "name", "type": "string", "default": "world" } ] }
                  ]
                }
              ]
            }
          ]
        }

        """
      ),
    ]
  }
}

extension PluginScaffold.Kind {
  var isContract: Bool {
    if case .contract = self { return true }
    return false
  }

  /// The contract library package a plugin uses, if any.
  var usedContract: ContractScaffold.Package? {
    if case .plugin(let uses) = self { return uses }
    return nil
  }
}
