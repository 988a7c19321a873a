import Apiary

/// What the host loads from this library: its module and target types.
@_cdecl("apiary_plugin_entry")
public func apiaryPluginEntry() -> UnsafeMutableRawPointer {
  PluginExports(modules: NotesModule.self, targets: NotesTarget.self).retained()
}
