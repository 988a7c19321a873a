/// Where notes live. Bound in the container by the `store` module; resolved by `notes`. Every
/// method may read storage (other processes may share it), so every method can throw.
///
/// ```swift
/// let store = try context.container.resolve((any NoteStore).self)
/// let note = try store.create(title: "Hello", body: "", pinned: false)
/// ```
public protocol NoteStore: AnyObject, Sendable {
  /// Saves a new note and returns it with its identifier.
  func create(title: String, body: String, pinned: Bool) throws -> Note
  /// Every note, oldest first.
  func all() throws -> [Note]
  func note(id: Int) throws -> Note?
  /// Removes a note; false when there was none.
  func delete(id: Int) throws -> Bool
}
