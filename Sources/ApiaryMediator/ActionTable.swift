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
public struct ActionTable<T: ActionTarget>: Sendable, ExpressibleByDictionaryLiteral {
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
