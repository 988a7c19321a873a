import Apiary

/// The module the descriptor declares, which the entry does not export.
final class DeclaredModule: Module {
  init() {}
}

/// The module the entry exports instead: the descriptor and the code drifted apart, as when a
/// type is renamed and the descriptor is not.
final class ShippedModule: Module {
  init() {}
}

@_cdecl("apiary_plugin_entry")
public func apiaryPluginEntry() -> UnsafeMutableRawPointer {
  PluginExports(modules: ShippedModule.self).retained()
}
