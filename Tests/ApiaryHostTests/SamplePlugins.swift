import Foundation

/// The Notebook sample's plugins, built apart from the host (as a user builds them) once per
/// test process, and a copy of the sample manifests that names those builds.
///
/// `Manifests/` names the release builds (`Scripts/run-sample` makes them); the tests run the
/// debug host, so the copy names the debug builds: a plugin must be built in the host's
/// configuration.
enum SamplePlugins {
  static let package = HostProcess.root.appendingPathComponent("Plugins/Notebook")

  /// The sample manifests' directory, with the plugins built; idempotent.
  static let manifests: String = {
    build(package)
    let directory = HostProcess.temporaryDirectory().appendingPathComponent("Manifests")
    let source = HostProcess.root.appendingPathComponent("Manifests")
    let files = FileManager.default
    try? files.copyItem(at: source, to: directory)
    let released = "../../Plugins/Notebook/.build/release/"
    let debug = package.appendingPathComponent(".build/debug/").path + "/"
    for name in (try? files.contentsOfDirectory(atPath: directory.path + "/modules")) ?? [] {
      let file = directory.appendingPathComponent("modules/\(name)")
      guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
      try? text.replacingOccurrences(of: released, with: debug)
        .write(to: file, atomically: true, encoding: .utf8)
    }
    return directory.path
  }()

  /// Runs `swift build --package-path package`; on failure its output goes to standard error,
  /// and the tests that need the plugins fail on the missing libraries.
  static func build(_ package: URL) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "build", "--package-path", package.path]
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
