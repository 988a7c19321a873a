import Apiary
import NotebookKit

/// The `notes` module: the feature. Its `notes` target (declared in its manifest) creates, lists,
/// reads and deletes notes, and posts `note.saved` / `note.deleted` for other modules.
final class NotesModule: Module {
  init() {}

  func ready(_ context: ModuleContext) async {
    let count = (try? context.container.resolve((any NoteStore).self).all().count) ?? 0
    try? context.container.resolve((any Logger).self).info(
      "\(count) notes ready", module: context.name)
  }
}
