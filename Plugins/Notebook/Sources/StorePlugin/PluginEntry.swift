import Apiary

/// What the host loads from this library: its module type.
@_cdecl("apiary_plugin_entry")
public func apiaryPluginEntry() -> UnsafeMutableRawPointer {
  PluginExports(modules: StoreModule.self).retained()
}
