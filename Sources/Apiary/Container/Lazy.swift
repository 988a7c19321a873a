import Foundation

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
  private let lock = NSLock()
  private var value: T?

  init(graph: ResolutionGraph?, _ resolve: @escaping @Sendable () throws(ContainerError) -> T) {
    self.graph = graph
    self.resolve = resolve
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
    let resolved: T
    if let graph {
      resolved = try ResolutionState.current.resolve(in: graph, resolve)
    } else {
      resolved = try resolve()
    }
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
