import NotebookKit
import Synchronization

/// A word index over note titles and bodies, kept current by `note.saved` / `note.deleted`.
final class SearchIndex: Sendable {
  private let notes = Mutex<[Int: (title: String, words: Set<String>)]>([:])

  func add(_ note: Note) {
    let words = Self.words(note.title + " " + note.body)
    notes.withLock { $0[note.id] = (note.title, words) }
  }

  func remove(id: Int) { _ = notes.withLock { $0.removeValue(forKey: id) } }

  var count: Int { notes.withLock { $0.count } }

  /// Notes containing every word of `query`, by id.
  func query(_ query: String, limit: Int) -> [[String: any Sendable]] {
    let wanted = Self.words(query)
    return notes.withLock { notes in
      notes.filter { wanted.isSubset(of: $0.value.words) }.sorted { $0.key < $1.key }
        .prefix(max(0, limit)).map { ["id": $0.key, "title": $0.value.title] }
    }
  }

  static func words(_ text: String) -> Set<String> {
    Set(text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init))
  }
}
