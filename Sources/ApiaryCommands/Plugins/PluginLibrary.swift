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
///
/// Every library opened is recorded (``opened``): it stays in the process, so later gate runs
/// check new libraries against it, and a file changed on disk since is refused
/// (``changes(_:opened:)``).
enum PluginLibrary {
  struct LoadError: Error, CustomStringConvertible {
    let description: String
  }

  /// The libraries this process opened, in load order; never unloaded, so never removed.
  private static let record = Locked<[GatedPlugin]>([])

  /// What the gate accepted of each library this process opened, in load order.
  static var opened: [GatedPlugin] { record.withLock { $0 } }

  /// A problem for each of `requests` whose path was opened before and whose file changed
  /// since (`dlopen` returns the first image of a path again: the file the gate read would not
  /// run), or that names the new file at such a path (a second copy of the plugin).
  static func changes(_ requests: [PluginRequest], opened: [GatedPlugin]) -> [(String, String)] {
    var problems: [(String, String)] = []
    let replaced = opened.compactMap { library -> (GatedPlugin, FileIdentity)? in
      guard let now = FileIdentity(of: library.candidate.library), now != library.identity else {
        return nil
      }
      return (library, now)
    }
    guard !replaced.isEmpty else { return [] }
    for request in requests {
      let now = FileIdentity(of: request.path)
      for (library, current) in replaced
      where library.candidate.library == request.path || current == now {
        let path = library.candidate.library
        let what =
          path == request.path
          ? "\(path): the file changed on disk since it was loaded into this process"
          : "\(request.path): is the file that replaced '\(path)' on disk after that was loaded "
            + "into this process"
        problems.append(
          (
            request.path,
            "\(what): expected \(library.identity), found \(current); a process keeps the first "
              + "image of a library, so restart the host to load the new one"
          ))
        break
      }
    }
    return problems
  }

  static func open(_ request: PluginRequest, accepted: GatedPlugin, into catalog: TypeCatalog)
    throws(LoadError)
  {
    let plugin = accepted.descriptor
    let path = request.path
    // A name without a slash would send `dlopen` searching the library path, and open a file
    // other than the one the gate read.
    let file = path.contains("/") ? path : "./" + path
    // The file the gate read, still: a build that replaced it since would run unchecked. (The
    // moments between this look and `dlopen`'s own open remain; a path cannot be opened by the
    // loader from a descriptor without changing the `$ORIGIN` its RUNPATH expands.)
    if let now = FileIdentity(of: file), now != accepted.identity {
      throw LoadError(
        description: "\(path): the file changed on disk after the load gate read it: expected "
          + "\(accepted.identity), found \(now); load it again to check the new file")
    }
    guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
      let reason = lastError()
      // A contract library's symbol missing from the copy loaded is explained; the rest is
      // dlerror's.
      let missing = MissingContractSymbol(dlerror: reason, accepted: accepted, opened: opened)
      throw LoadError(description: missing?.description ?? "\(path): cannot open: \(reason)")
    }
    // Mapped for good, whatever follows: later gate runs must see it.
    record.withLock { opened in
      if !opened.contains(where: { $0.candidate.library == path }) { opened.append(accepted) }
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
