import Foundation
import NotebookKit
import Synchronization

/// Keeps notes in memory and in `<directory>/notes.json`. Every change is written to a temporary
/// file and renamed over the old one, so a crash never leaves a half-written store.
final class FileNoteStore: NoteStore {
  private let file: URL
  private let state = Mutex<(notes: [Note], nextID: Int)>(([], 1))

  init(directory: String) {
    file = URL(fileURLWithPath: directory).appendingPathComponent("notes.json")
  }

  /// Creates the directory and reads existing notes.
  func load() throws {
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    guard FileManager.default.fileExists(atPath: file.path) else { return }
    let notes = try JSONDecoder().decode([Note].self, from: Data(contentsOf: file))
    state.withLock { $0 = (notes, (notes.map(\.id).max() ?? 0) + 1) }
  }

  func create(title: String, body: String, pinned: Bool) throws -> Note {
    try change { state in
      let note = Note(id: state.nextID, title: title, body: body, pinned: pinned)
      state.nextID += 1
      state.notes.append(note)
      return note
    }
  }

  func all() -> [Note] { state.withLock { $0.notes } }

  func note(id: Int) -> Note? { state.withLock { $0.notes.first { $0.id == id } } }

  func delete(id: Int) throws -> Bool {
    try change { state in
      let before = state.notes.count
      state.notes.removeAll { $0.id == id }
      return state.notes.count != before
    }
  }

  /// Applies `update` and persists the result under the lock, so writes never interleave.
  private func change<T>(_ update: (inout (notes: [Note], nextID: Int)) -> T) throws -> T {
    try state.withLock { state in
      var copy = state
      let result = update(&copy)
      let data = try JSONEncoder().encode(copy.notes)
      try data.write(to: file, options: .atomic)
      state = copy
      return result
    }
  }
}
