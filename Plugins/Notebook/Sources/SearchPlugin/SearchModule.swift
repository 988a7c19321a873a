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
      guard let note = event.payload["note"] as? Note else { return .ignored }
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
      guard let fields = item as? [String: any Sendable], let id = fields["id"] as? Int,
        let title = fields["title"] as? String
      else { continue }
      index.add(Note(id: id, title: title, body: fields["body"] as? String ?? ""))
    }
  }
}
