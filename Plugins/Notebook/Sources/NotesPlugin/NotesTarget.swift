import Apiary
import NotebookKit

/// The `notes` target. Parameters are checked against the manifest before an action runs, so
/// the actions read them without further validation.
final class NotesTarget: Target {
  let store: any NoteStore
  let events: EventBus
  let maxTitleLength: Int
  static let defaultMaxTitleLength = 200

  init(context: ModuleContext) throws {
    store = try context.container.resolve((any NoteStore).self)
    events = context.events
    maxTitleLength = try context.config.int("maxTitleLength", default: Self.defaultMaxTitleLength)
  }

  static let actions: ActionTable<NotesTarget> = [
    "create": .async { target, params in
      let title = try params.string("title")
      guard !title.isEmpty, title.count <= target.maxTitleLength else {
        throw NotesError.badTitle(length: title.count, limit: target.maxTitleLength)
      }
      let note = try target.store.create(
        title: title, body: try params.string("body"), pinned: try params.bool("pinned"))
      await target.events.post(NoteEvents.saved, payload: ["note": note])
      return note.fields
    },
    "list": .sync { target, params in
      let pinnedOnly = try params.bool("pinnedOnly")
      return try target.store.all().filter { !pinnedOnly || $0.pinned }.map(\.fields)
    },
    "get": .sync { target, params in
      let id = try params.int("id")
      guard let note = try target.store.note(id: id) else { throw NotesError.noSuchNote(id) }
      return note.fields
    },
    "delete": .async { target, params in
      let id = try params.int("id")
      guard try target.store.delete(id: id) else { throw NotesError.noSuchNote(id) }
      await target.events.post(NoteEvents.deleted, payload: ["id": id])
      return ["deleted": id]
    },
  ]
}

enum NotesError: Error, CustomStringConvertible {
  case noSuchNote(Int)
  case badTitle(length: Int, limit: Int)

  var description: String {
    switch self {
    case .noSuchNote(let id): "no note with id \(id)"
    case .badTitle(let length, let limit): "a title needs 1 to \(limit) characters, got \(length)"
    }
  }
}
