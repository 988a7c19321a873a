/// A target's actions by name, written as a dictionary literal.
///
/// ```swift
/// static let actions: ActionTable<NotesTarget> = [
///   "create": .sync { target, params in try target.create(title: params.string("title")) },
///   "count": .sync { target, _ in target.count },
/// ]
/// ```
///
/// A name written twice keeps the last action (a plain dictionary literal would crash).
///
/// `T`, the target class, is not required to be an ``ActionTarget`` here: with that requirement,
/// the runtime would look the conformance up when a plugin first makes its table, scanning every
/// conformance record of the process (tens of microseconds for each plugin loaded).
public struct ActionTable<T: AnyObject>: Sendable, ExpressibleByDictionaryLiteral {
  let actions: [String: Action<T>]

  package init(_ actions: [String: Action<T>]) {
    self.actions = actions
  }

  public init(dictionaryLiteral elements: (String, Action<T>)...) {
    self.actions = Dictionary(elements, uniquingKeysWith: { _, last in last })
  }

  /// The implemented action names, sorted.
  package var names: [String] { actions.keys.sorted() }
}
