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
///   PluginExports(modules: [NotesModule.self], targets: [NotesTarget.self]).retained()
/// }
/// ```
public final class PluginExports: Sendable {
  /// The module types, each named in the descriptor with a `module` line.
  package let modules: [any Module.Type]
  /// The target types, each named in the descriptor with a `target` line.
  package let targets: [any Target.Type]

  public init(modules: [any Module.Type] = [], targets: [any Target.Type] = []) {
    self.modules = modules
    self.targets = targets
  }

  /// A +1 reference to return from `apiary_plugin_entry`.
  public func retained() -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(self).toOpaque()
  }

  /// Takes over the reference `apiary_plugin_entry` returned.
  package static func take(_ pointer: UnsafeMutableRawPointer) -> PluginExports {
    Unmanaged<PluginExports>.fromOpaque(pointer).takeRetainedValue()
  }

  /// Every exported type with the name the descriptor and manifests use
  /// (`NotesPlugin.NotesModule`).
  /// The name is `_typeName(_:qualified:)`, what `String(reflecting:)` prints for a type, without
  /// its protocol conformance checks: in a fresh process those scan every loaded image and cost
  /// more than opening the library (BENCHMARKS.md, "Plugins").
  package var namedTypes: [(name: String, type: Any.Type)] {
    modules.map { (_typeName($0, qualified: true), $0) }
      + targets.map { (_typeName($0, qualified: true), $0) }
  }
}
