import Apiary
import NotebookKit

/// The `notes` module: the feature. Its `notes` target (declared in its manifest) creates, lists,
/// reads and deletes notes, and posts `note.saved` / `note.deleted` for other modules.
final class NotesModule: Module {
  init() {}

  /// Checks the config at set-up, so a wrong value fails the boot (and `apiary validate`'s
  /// set-up), not the first call that creates the target.
  func setUp(_ context: ModuleContext) throws {
    _ = try context.config.int("maxTitleLength", default: NotesTarget.defaultMaxTitleLength)
  }

  func ready(_ context: ModuleContext) async {
    let count = (try? context.container.resolve((any NoteStore).self).all().count) ?? 0
    try? context.container.resolve((any Logger).self).info(
      "\(count) notes ready", module: context.name)
  }
}
