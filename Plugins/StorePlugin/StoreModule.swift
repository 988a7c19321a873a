import Apiary
import NotebookKit

/// The `store` module: binds `NoteStore` to a file-backed store in the application config's
/// `dataDirectory`, and opens it in its (async) start, so a damaged store fails the start with
/// a message that names the file and what to do. Its config's `compactAfter` (default 1000) is
/// the fewest journal changes that are folded into a new snapshot.
final class StoreModule: Module {
  init() {}

  func setUp(_ context: ModuleContext) throws {
    let directory = try context.applicationConfig.string("dataDirectory", default: ".apiary-data")
    let compactAfter = try context.config.int("compactAfter", default: 1000)
    guard compactAfter > 0 else {
      throw ConfigError.typeMismatch(
        owner: context.config.owner, key: "compactAfter", expected: "a positive integer",
        found: "\(compactAfter)")
    }
    let store = FileNoteStore(directory: directory, compactAfter: compactAfter)
    try context.container.register((any NoteStore).self, scope: .singleton) { _ in store }
  }

  func start(_ context: ModuleContext) async throws {
    guard let store = try context.container.resolve((any NoteStore).self) as? FileNoteStore else {
      return
    }
    try store.open()
    let log = try context.container.resolve((any Logger).self)
    log.info("loaded \(try store.all().count) notes", module: context.name)
  }
}
