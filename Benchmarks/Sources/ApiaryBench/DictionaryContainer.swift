import Synchronization

/// The hand-written baseline: a dictionary keyed by type and name behind one lock, holding
/// factories and built singletons. What a careful engineer writes in an afternoon.
///
/// ```swift
/// let baseline = DictionaryContainer()
/// baseline.register(Logger.self, singleton: true) { _ in Logger() }
/// let logger = baseline.resolve(Logger.self)
/// ```
final class DictionaryContainer: Sendable {
  private struct Key: Hashable {
    let type: ObjectIdentifier
    let name: String?
  }

  private enum Entry {
    case instance(any Sendable)
    case singleton(@Sendable (DictionaryContainer) -> any Sendable)
    case transient(@Sendable (DictionaryContainer) -> any Sendable)
    case argument(@Sendable (DictionaryContainer, any Sendable) -> any Sendable)
  }

  private let entries = Mutex<[Key: Entry]>([:])

  func register<T: Sendable>(
    _ type: T.Type, name: String? = nil, singleton: Bool = false,
    factory: @escaping @Sendable (DictionaryContainer) -> T
  ) {
    let entry: Entry = singleton ? .singleton(factory) : .transient(factory)
    entries.withLock { $0[Key(type: ObjectIdentifier(type), name: name)] = entry }
  }

  func register<T: Sendable, Argument: Sendable>(
    _ type: T.Type, factory: @escaping @Sendable (DictionaryContainer, Argument) -> T
  ) {
    let entry = Entry.argument { container, argument in
      // The resolve below only passes `Argument`s here; a mismatch would be a caller's bug.
      guard let argument = argument as? Argument else { return Missing() }
      return factory(container, argument)
    }
    entries.withLock { $0[Key(type: ObjectIdentifier(type), name: nil)] = entry }
  }

  func resolve<T>(_ type: T.Type, name: String? = nil) -> T? {
    let key = Key(type: ObjectIdentifier(type), name: name)
    switch entries.withLock({ $0[key] }) {
    case .instance(let instance):
      return instance as? T
    case .singleton(let factory):
      let built = factory(self)
      let winner = entries.withLock { entries in
        if case .instance(let other) = entries[key] { return other }
        entries[key] = .instance(built)
        return built
      }
      return winner as? T
    case .transient(let factory):
      return factory(self) as? T
    case .argument, nil:
      return nil
    }
  }

  func resolve<T, Argument: Sendable>(_ type: T.Type, argument: Argument) -> T? {
    guard
      case .argument(let factory) = entries.withLock({
        $0[Key(type: ObjectIdentifier(type), name: nil)]
      })
    else { return nil }
    return factory(self, argument) as? T
  }
}
