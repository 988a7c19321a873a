/// What a plugin library hands the host: its module and target types.
///
/// A plugin exports one C function, `apiary_plugin_entry`, returning a retained
/// `PluginExports`. The host calls it once, after the load gate has accepted the library,
/// checks the types against the plugin's descriptor and registers them in the kernel's
/// ``TypeCatalog`` under their names, so plugin types are never looked up by global name search.
///
/// ```swift
/// @_cdecl("apiary_plugin_entry")
/// public func apiaryPluginEntry() -> UnsafeMutableRawPointer {
///   PluginExports(modules: NotesModule.self, targets: NotesTarget.self).retained()
/// }
/// ```
///
/// The types are passed one by one (a parameter pack), not as arrays: an array of
/// `any Module.Type` built in the plugin has its metadata looked up by mangled name in every
/// newly loaded image, about 6 µs of each plugin load (BENCHMARKS.md, "Plugins").
public final class PluginExports: Sendable {
  /// The module types, each named in the descriptor with a `module` line.
  package let modules: [any Module.Type]
  /// The target types, each named in the descriptor with a `target` line.
  package let targets: [any Target.Type]

  public init<each M: Module, each T: Target>(
    modules: repeat (each M).Type, targets: repeat (each T).Type
  ) {
    var moduleTypes: [any Module.Type] = []
    for type in repeat each modules { moduleTypes.append(type) }
    var targetTypes: [any Target.Type] = []
    for type in repeat each targets { targetTypes.append(type) }
    self.modules = moduleTypes
    self.targets = targetTypes
  }

  /// A +1 reference to return from `apiary_plugin_entry`.
  public func retained() -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(self).toOpaque()
  }

  /// Takes over the reference `apiary_plugin_entry` returned.
  package static func take(_ pointer: UnsafeMutableRawPointer) -> PluginExports {
    Unmanaged<PluginExports>.fromOpaque(pointer).takeRetainedValue()
  }
}
