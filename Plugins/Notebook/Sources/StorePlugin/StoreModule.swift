import Apiary
import NotebookKit

/// The `store` module: binds `NoteStore` to a file-backed store in the directory from its config,
/// and loads existing notes in its (async) start.
final class StoreModule: Module {
  init() {}

  func setUp(_ context: ModuleContext) throws {
    let directory = try context.applicationConfig.string("dataDirectory", default: ".apiary-data")
    let store = FileNoteStore(directory: directory)
    try context.container.register((any NoteStore).self, scope: .singleton) { _ in store }
  }

  func start(_ context: ModuleContext) async throws {
    guard let store = try context.container.resolve((any NoteStore).self) as? FileNoteStore else {
      return
    }
    try store.load()
    let log = try context.container.resolve((any Logger).self)
    log.info("loaded \(store.all().count) notes", module: context.name)
  }
}
