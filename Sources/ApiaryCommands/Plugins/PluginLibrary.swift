import Apiary

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

  static func open(_ path: String, declared plugin: AcceptedPlugin, into catalog: TypeCatalog)
    throws(LoadError)
  {
    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
      throw LoadError(description: "\(path): cannot open: \(lastError())")
    }
    guard let symbol = dlsym(handle, "apiary_plugin_entry") else {
      throw LoadError(
        description: "\(path): apiary_plugin_entry: entry symbol not found: \(lastError())")
    }
    typealias Entry = @convention(c) () -> UnsafeMutableRawPointer
    let exports = PluginExports.take(unsafeBitCast(symbol, to: Entry.self)())
    let exported = exports.namedTypes
    let modules = Set(exported.prefix(exports.modules.count).map(\.name))
    let targets = Set(exported.dropFirst(exports.modules.count).map(\.name))
    guard modules == Set(plugin.modules), targets == Set(plugin.targets) else {
      throw LoadError(
        description: "\(path): apiary_plugin_entry: exports differ from the descriptor; "
          + "expected modules \(plugin.modules.sorted()) and targets \(plugin.targets.sorted()), "
          + "found modules \(modules.sorted()) and targets \(targets.sorted())")
    }
    for (name, type) in exported { catalog.register(type, as: name) }
  }

  private static func lastError() -> String {
    dlerror().map { String(cString: $0) } ?? "no reason given"
  }
}
