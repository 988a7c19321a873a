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
/// Each plugin's target is a new `T`, and generic code run for a new `T` makes the runtime build
/// types it has not seen (tens of microseconds a plugin). So the table keeps the actions as
/// written, in the array the literal already made, and finds them through a `[String: Int]`
/// that is the same type for every target; and `T`, the target class, is not required to be an
/// ``ActionTarget``, which would make the runtime look the conformance up, scanning every
/// conformance record of the process.
public struct ActionTable<T: AnyObject>: Sendable, ExpressibleByDictionaryLiteral {
  private let written: [(String, Action<T>)]
  /// Each name's position in `written`: the last one written with that name.
  private let positions: [String: Int]

  package init(_ actions: [(String, Action<T>)]) {
    var positions: [String: Int] = [:]
    for position in actions.indices { positions[actions[position].0] = position }
    self.written = actions
    self.positions = positions
  }

  public init(dictionaryLiteral elements: (String, Action<T>)...) {
    self.init(elements)
  }

  /// The action named `name`, if the target implements it.
  package subscript(name: String) -> Action<T>? {
    guard let position = positions[name] else { return nil }
    return written[position].1
  }

  /// The implemented action names, sorted.
  package var names: [String] { positions.keys.sorted() }
}
