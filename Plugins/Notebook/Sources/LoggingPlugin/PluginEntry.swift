import Apiary

/// What the host loads from this library: its module and target types.
@_cdecl("apiary_plugin_entry")
public func apiaryPluginEntry() -> UnsafeMutableRawPointer {
  PluginExports(modules: LoggingModule.self, targets: DiagnosticsTarget.self).retained()
}
