import Foundation

/// A plugin package of this repository, built apart from the host (as a user builds it) in the
/// host's configuration: a plugin must be built in the host's configuration, and the tests run
/// the debug host.
///
/// ```swift
/// static let faults = PluginPackage.built("Tests/Fixtures/FaultPlugin")
/// let library = faults.library("FaultPlugin")  // …/.build/debug/libFaultPlugin.so
/// ```
struct PluginPackage: Sendable {
  /// The misbehaving fixtures, `Tests/Fixtures/FaultPlugin`, built once per test process.
  static let faults = PluginPackage.built("Tests/Fixtures/FaultPlugin")

  /// The package's directory.
  let directory: URL

  /// The package at `path` (relative to the repository), not yet built.
  init(_ path: String) {
    directory = HostProcess.root.appendingPathComponent(path)
  }

  /// The package at `path`, after `swift build`. Keep the result in a `static let` so each
  /// package is built once per test process.
  static func built(_ path: String) -> PluginPackage {
    let package = PluginPackage(path)
    package.build()
    return package
  }

  /// The debug build of the package's dynamic library product `product`.
  func library(_ product: String) -> URL {
    directory.appendingPathComponent(".build/debug/lib\(product).so")
  }

  /// Runs `swift build --package-path directory`; on failure its output goes to standard error,
  /// and the tests that need the plugins fail on the missing libraries.
  func build() {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "build", "--package-path", directory.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    do {
      try process.run()
    } catch {
      FileHandle.standardError.write(Data("cannot run swift build: \(error)\n".utf8))
      return
    }
    let text = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    if process.terminationStatus != 0 { FileHandle.standardError.write(text) }
  }
}
