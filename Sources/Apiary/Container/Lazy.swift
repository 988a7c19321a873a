/// A service resolved on first `get()` and kept afterwards; breaks cycles and defers costly
/// creation. Not thread-safe: it belongs to the object that holds it.
///
/// ```swift
/// final class Editor {
///   let spellChecker: Lazy<SpellChecker>
///   init(resolver: Resolver) { spellChecker = resolver.lazy() }
///   func check(_ text: String) throws -> Bool { try spellChecker.get().check(text) }
/// }
/// ```
public final class Lazy<T> {
  private let resolver: Resolver
  private let name: String?
  private var value: T?

  init(resolver: Resolver, name: String?) {
    self.resolver = resolver
    self.name = name
  }

  /// The instance, resolved on the first call.
  public func get() throws(ContainerError) -> T {
    if let value { return value }
    let resolved = try resolver.resolve(T.self, name: name)
    value = resolved
    return resolved
  }
}
