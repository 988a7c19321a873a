import ApiarySupport

/// A service resolved on first `get()` and kept afterwards; breaks cycles and defers costly
/// creation. Safe to share between threads when `T` is `Sendable`.
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
  private let value = Locked<T?>(nil)

  init(resolver: Resolver, name: String?) {
    self.resolver = resolver
    self.name = name
  }

  /// The instance, resolved on the first call (outside the lock; if two threads race, both
  /// get the first instance stored).
  public func get() throws(ContainerError) -> T {
    if let existing = value.withLock({ $0 }) { return existing }
    let resolved = try resolver.resolve(T.self, name: name)
    return value.withLock { slot in
      if let existing = slot { return existing }
      slot = resolved
      return resolved
    }
  }
}

/// `value` is a `Locked` (read and written only under its lock); the rest is immutable, and `T`
/// itself is `Sendable`, so handing the instance to several threads is safe.
extension Lazy: @unchecked Sendable where T: Sendable {}
