import Apiary
import NotebookKit

/// A module of a plugin that embeds its own `NotebookKit` (see `Sources/NotebookKit`).
final class SplitModule: Module {
  init() {}

  func setUp(_ context: ModuleContext) throws {
    try context.container.register(Note.self) { _ in Note(title: "split") }
  }
}

@_cdecl("apiary_plugin_entry")
public func apiaryPluginEntry() -> UnsafeMutableRawPointer {
  PluginExports(modules: SplitModule.self).retained()
}
