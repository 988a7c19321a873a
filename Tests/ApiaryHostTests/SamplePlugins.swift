import Foundation

/// The Notebook sample's plugins, built once per test process, and a copy of the sample
/// manifests that names those builds.
///
/// `Manifests/` names the release builds (`Scripts/run-sample` makes them); the tests run the
/// debug host, so the copy names the debug builds.
enum SamplePlugins {
  static let package = PluginPackage("Plugins/Notebook")

  /// The sample manifests' directory, with the plugins built; idempotent.
  static let manifests: String = {
    package.build()
    let directory = HostProcess.temporaryDirectory().appendingPathComponent("Manifests")
    let source = HostProcess.root.appendingPathComponent("Manifests")
    let files = FileManager.default
    try? files.copyItem(at: source, to: directory)
    let released = "../../Plugins/Notebook/.build/release/"
    let debug = package.directory.appendingPathComponent(".build/debug/").path + "/"
    for name in (try? files.contentsOfDirectory(atPath: directory.path + "/modules")) ?? [] {
      let file = directory.appendingPathComponent("modules/\(name)")
      guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
      try? text.replacingOccurrences(of: released, with: debug)
        .write(to: file, atomically: true, encoding: .utf8)
    }
    return directory.path
  }()
}
