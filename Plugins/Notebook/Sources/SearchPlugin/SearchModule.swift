import Apiary
import NotebookKit

/// The `search` module: an optional, async-starting index. It fills the index through the typed
/// `notes` client in `start` and keeps it current by listening to note events.
final class SearchModule: Module {
  private let index = SearchIndex()

  init() {}

  func setUp(_ context: ModuleContext) throws {
    let index = self.index
    try context.container.register(SearchIndex.self, scope: .singleton) { _ in index }
    context.events.subscribe(NoteEvents.saved) { event in
      // A `Note` in the host's process; its JSON fields when the module runs in a child.
      guard let note = event.payload["note"] as? Note ?? Self.note(event.payload["note"]) else {
        return .ignored
      }
      index.add(note)
      return .handled
    }
    context.events.subscribe(NoteEvents.deleted) { event in
      guard let id = event.payload["id"] as? Int else { return .ignored }
      index.remove(id: id)
      return .handled
    }
  }

  func start(_ context: ModuleContext) async throws {
    for item in try await context.mediator.notes.list(pinnedOnly: false) {
      if let note = Self.note(item) { index.add(note) }
    }
  }

  /// A note from its fields, as `notes` returns them and as JSON brings them.
  private static func note(_ value: (any Sendable)?) -> Note? {
    guard let fields = value as? [String: any Sendable], let id = fields["id"] as? Int,
      let title = fields["title"] as? String
    else { return nil }
    return Note(id: id, title: title, body: fields["body"] as? String ?? "")
  }
}
