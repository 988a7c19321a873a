import Apiary
import ApiaryPluginGate

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opens a plugin library the load gate accepted and registers the types it exports.
///
/// The library is opened with `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE`: every symbol is bound
/// at once (a missing one fails here, not mid-call), its symbols do not leak into other
/// plugins, and it is never unmapped (Swift images cannot be unloaded safely). Its one entry,
/// `apiary_plugin_entry`, returns a ``PluginExports``; the exported types must be exactly the
/// ones its descriptor declares, and are then registered in `catalog` under their names.
enum PluginLibrary {
  struct LoadError: Error, CustomStringConvertible {
    let description: String
  }

  static func open(_ path: String, declared plugin: PluginDescriptor, into catalog: TypeCatalog)
    throws(LoadError)
  {
    // A name without a slash would send `dlopen` searching the library path, and open a file
    // other than the one the gate read.
    let file = path.contains("/") ? path : "./" + path
    guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
      throw LoadError(description: "\(path): cannot open: \(lastError())")
    }
    guard let symbol = dlsym(handle, "apiary_plugin_entry") else {
      throw LoadError(
        description: "\(path): apiary_plugin_entry: entry symbol not found: \(lastError())")
    }
    typealias Entry = @convention(c) () -> UnsafeMutableRawPointer?
    guard let entry = unsafeBitCast(symbol, to: Entry.self)() else {
      throw LoadError(
        description: "\(path): apiary_plugin_entry: returned a null pointer, not the plugin's "
          + "exports (return PluginExports(modules: …, targets: …).retained())")
    }
    let exports = PluginExports.take(entry)
    // Each exported type under the declared name it has (`_typeName(type, qualified: true)`),
    // found by `QualifiedTypeName` without printing the name; the names compared as sets
    // by search: a handful of names, and a new `Set` or tuple array type costs a metadata
    // instantiation in a fresh process.
    let modules = exports.modules.compactMap { declaredName(of: $0, among: plugin.modules) }
    let targets = exports.targets.compactMap { declaredName(of: $0, among: plugin.targets) }
    guard modules.count == exports.modules.count, targets.count == exports.targets.count,
      plugin.modules.allSatisfy(modules.contains), plugin.targets.allSatisfy(targets.contains)
    else {
      let modules = exports.modules.map { _typeName($0, qualified: true) }
      let targets = exports.targets.map { _typeName($0, qualified: true) }
      throw LoadError(
        description: "\(path): apiary_plugin_entry: exports differ from the descriptor; "
          + "expected modules \(plugin.modules.sorted()) and targets \(plugin.targets.sorted()), "
          + "found modules \(modules.sorted()) and targets \(targets.sorted())")
    }
    for (name, type) in zip(modules, exports.modules) { catalog.register(module: type, as: name) }
    for (name, type) in zip(targets, exports.targets) { catalog.register(target: type, as: name) }
  }

  /// The name in `declared` that `type` has, if any.
  private static func declaredName(of type: Any.Type, among declared: [String]) -> String? {
    declared.first { QualifiedTypeName.matches(type, $0) }
  }

  private static func lastError() -> String {
    dlerror().map { String(cString: $0) } ?? "no reason given"
  }
}
