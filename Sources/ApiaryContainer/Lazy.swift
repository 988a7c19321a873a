import Foundation

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
  private let lock = NSLock()
  private var value: T?

  init(resolver: Resolver, name: String?) {
    self.resolver = resolver
    self.name = name
  }

  /// The instance, resolved on the first call (outside the lock; if two threads race, both
  /// get the first instance stored).
  public func get() throws(ContainerError) -> T {
    lock.lock()
    if let value {
      lock.unlock()
      return value
    }
    lock.unlock()
    let resolved = try resolver.resolve(T.self, name: name)
    lock.lock()
    defer { lock.unlock() }
    if let value { return value }
    value = resolved
    return resolved
  }
}

/// `value` is read and written only while holding `lock`; the rest is immutable, and `T`
/// itself is `Sendable`, so handing the instance to several threads is safe.
extension Lazy: @unchecked Sendable where T: Sendable {}
