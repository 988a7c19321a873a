import ApiaryManifest
import ApiaryMediator

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Finds which module calls which target by reading the modules' Swift sources: a call through a
/// generated client (`mediator.notes.list()`), `perform(target: "notes"`, or a URL
/// `scheme://notes/`. A module's sources are the directory named after the Swift module of its
/// type (`SearchPlugin.SearchModule` → `SOURCES/SearchPlugin`). A textual scan, cheap and
/// approximate: a call built from a variable target name is not seen.
///
/// ```swift
/// CallScanner.calls(modules: set.modules, sources: "Plugins")
/// // [ModuleGraph.Call(module: "search", target: "notes")]
/// ```
package enum CallScanner {
  package static func calls(modules: [ModuleManifest], sources: String) -> [ModuleGraph.Call] {
    let targets = modules.flatMap { module in module.targets.map { (module.name, $0.name) } }
    var calls: [ModuleGraph.Call] = []
    for module in modules {
      guard let swiftModule = module.type.split(separator: ".").first else { continue }
      let text = swiftSources(in: sources + "/" + swiftModule)
      for (owner, target) in targets where owner != module.name {
        let patterns = [
          "mediator.\(SwiftName.member(target)).", "target: \"\(target)\"", "://\(target)/",
        ]
        if patterns.contains(where: text.contains) {
          calls.append(ModuleGraph.Call(module: module.name, target: target))
        }
      }
    }
    return calls
  }

  /// The text of every `.swift` file under `directory`, or "" when there is none.
  private static func swiftSources(in directory: String) -> String {
    guard let files = try? FileManager.default.subpathsOfDirectory(atPath: directory) else {
      return ""
    }
    var text = ""
    for file in files.sorted() where file.hasSuffix(".swift") {
      text += (try? String(contentsOfFile: directory + "/" + file, encoding: .utf8)) ?? ""
    }
    return text
  }
}
