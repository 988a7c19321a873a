/// Finds Swift types by the names manifests use (`NotesPlugin.NotesModule`).
///
/// Types registered in code win; otherwise the Swift runtime is asked, the way CTMediator finds
/// `Target_` classes by name, so adding a plugin never means editing a list in the host. The
/// runtime finds classes and protocols at any access level, and public structs and enums; an
/// internal struct or enum that nothing references may be dead-stripped in a release build, so
/// implement modules, services and targets as classes.
///
/// ```swift
/// let catalog = TypeCatalog()
/// catalog.register(NotesModule.self)                     // optional: explicit registration
/// catalog.lookup("NotesPlugin.NotesModule") as? any Module.Type
/// ```
public final class TypeCatalog: Sendable {
  /// Types by name: registered in code, or found by the runtime and kept there, since a
  /// runtime lookup costs microseconds and a boot asks for the same few module types many
  /// times. One table, so a lookup takes one lock and hashes the name once. A registration
  /// replaces what the runtime found; what the runtime finds never replaces a registration.
  private let types = Locked<[String: Entry]>([:])

  /// A type, and values that hold it with a conformance it is known to have.
  private struct Entry {
    var type: Any.Type
    var known: [any Sendable] = []
  }

  public init() {}

  /// Registers `type` under `name`, or under its fully qualified Swift name when `name` is nil
  /// (`_typeName(type, qualified: true)`: the text `String(reflecting:)` gives, without the
  /// reflection machinery that costs a host's first registration a few hundred microseconds).
  public func register(_ type: Any.Type, as name: String? = nil) {
    register(type, as: name ?? _typeName(type, qualified: true), knownAs: [])
  }

  /// Registers `type` under `name` with values of layers above that hold it as a conformance it
  /// is known to have (the kernel's `any Module.Type` from a plugin's exports), for
  /// ``lookup(_:knownAs:)``. The runtime is then not asked: its first conformance check of a
  /// type scans the conformance records of every loaded image, tens of microseconds a type.
  package func register(_ type: Any.Type, as name: String, knownAs known: [any Sendable]) {
    types.withLock { $0[name] = Entry(type: type, known: known) }
  }

  /// The type named `name`, or nil when neither code nor the runtime knows it.
  public func lookup(_ name: String) -> Any.Type? { entry(name)?.type }

  /// The names registered so far and those the runtime found, sorted: what a "did you mean"
  /// for a name that finds nothing can offer (the runtime cannot list the types it has).
  package var names: [String] { types.withLock { Array($0.keys) }.sorted() }

  /// The type named `name` and, when it was registered with one, its `Known` value.
  ///
  /// ```swift
  /// catalog.lookup("NotesPlugin.NotesModule", knownAs: KnownModule.self)?.known?.type
  /// ```
  package func lookup<Known>(_ name: String, knownAs _: Known.Type) -> (
    type: Any.Type, known: Known?
  )? {
    guard let entry = entry(name) else { return nil }
    for value in entry.known {
      if let known = value as? Known { return (entry.type, known) }
    }
    return (entry.type, nil)
  }

  private func entry(_ name: String) -> Entry? {
    if let entry = types.withLock({ $0[name] }) { return entry }
    guard let type = Self.runtimeLookup(name) else { return nil }
    return types.withLock { types in
      if let registered = types[name] { return registered }  // registered meanwhile: it wins
      let found = Entry(type: type)
      types[name] = found
      return found
    }
  }

  /// Asks the Swift runtime. Only well-formed ASCII identifier paths are passed on, so hostile
  /// names never reach the demangler.
  static func runtimeLookup(_ name: String) -> Any.Type? {
    let components = name.split(separator: ".", omittingEmptySubsequences: false)
    guard components.count >= 2, components.count <= 4,
      components.allSatisfy({ isASCIIName($0, underscoreFirst: true, also: "_") })
    else { return nil }
    if let type = _typeByName(name) { return type }
    // Protocols, structs and enums are found only by mangled name. The outer components may be
    // classes, structs or enums; the last one may also be a protocol.
    var prefixes = ["\(components[0].utf8.count)\(components[0])"]
    for component in components.dropFirst().dropLast() {
      let mangled = "\(component.utf8.count)\(component)"
      prefixes = prefixes.flatMap { prefix in ["C", "V", "O"].map { prefix + mangled + $0 } }
    }
    let last = components[components.count - 1]
    let lastMangled = "\(last.utf8.count)\(last)"
    for prefix in prefixes {
      for kind in ["P", "C", "V", "O"] {
        if let type = _typeByName(prefix + lastMangled + kind) { return type }
      }
    }
    return nil
  }
}
