import ApiarySupport

/// A service resolved on first `get()` and kept afterwards; breaks cycles and defers costly
/// creation. Safe to share between threads when `T` is `Sendable`.
///
/// A `Lazy` made inside a factory resolves in that factory's object graph even when first used
/// after the resolve returned, so a `.graph` binding gives the instance the graph already shares
/// (Swinject's rule).
///
/// ```swift
/// final class Editor {
///   let spellChecker: Lazy<SpellChecker>
///   init(resolver: Resolver) { spellChecker = resolver.lazy() }
///   func check(_ text: String) throws -> Bool { try spellChecker.get().check(text) }
/// }
/// ```
public final class Lazy<T> {
  private let resolve: @Sendable () throws(ContainerError) -> T
  /// The object graph it was made in, if any.
  private let graph: ResolutionGraph?
  private let value = Locked<T?>(nil)

  init(graph: ResolutionGraph?, _ resolve: @escaping @Sendable () throws(ContainerError) -> T) {
    self.graph = graph
    self.resolve = resolve
  }

  /// The instance, resolved on the first call (outside the lock; if two threads race, both
  /// get the first instance stored).
  public func get() throws(ContainerError) -> T {
    if let existing = value.withLock({ $0 }) { return existing }
    let resolved: T
    if let graph {
      resolved = try ResolutionState.current.resolve(in: graph, resolve)
    } else {
      resolved = try resolve()
    }
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
