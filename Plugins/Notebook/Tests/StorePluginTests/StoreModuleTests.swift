import Apiary
import ApiaryTesting
import Foundation
import NotebookKit
import Synchronization
import Testing

@testable import StorePlugin

/// The `store` module booted alone from an inline manifest with `ApiaryTesting` (from the
/// `Apiary` product, so these tests and the plugin share one copy of the runtime), its logger
/// faked: the store it binds keeps notes across applications, and a bad config fails its setUp.
@Suite struct StoreModuleTests {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("store-module-tests-\(UUID().uuidString)").path

  /// An application of the store module on `directory`, with `config`, logging to `logger`.
  func application(config: String = "{}", logger: RecordingLogger) throws -> TestApplication {
    let catalog = TypeCatalog()
    catalog.register(StoreModule.self, as: "StorePlugin.StoreModule")
    return try TestApplication(
      manifest: """
        { "schemaVersion": 1, "modules": [
          { "name": "store", "type": "StorePlugin.StoreModule", "async": true,
            "config": \(config) } ] }
        """,
      application: ApplicationManifest(
        name: "Test", scheme: "test", environment: .test,
        config: ["dataDirectory": .string(directory)]),
      fakes: [Fake((any Logger).self) { _ in logger }], catalog: catalog)
  }

  @Test func notesStoredThroughTheBoundStoreAreThereInTheNextApplication() async throws {
    let first = RecordingLogger()
    let app = try application(logger: first)
    try await app.boot()
    let store = try app.container.resolve((any NoteStore).self)
    #expect(store is FileNoteStore)
    let note = try store.create(title: "kept", body: "across boots", pinned: true)
    await app.shutdown()
    #expect(first.messages == ["store: loaded 0 notes"])

    let second = RecordingLogger()
    let next = try application(logger: second)
    try await next.boot()
    #expect(try next.container.resolve((any NoteStore).self).all() == [note])
    #expect(second.messages == ["store: loaded 1 notes"])
    await next.shutdown()
  }

  @Test func aCompactAfterBelowOneFailsTheSetUpAndBindsNoStore() async throws {
    let logger = RecordingLogger()
    let app = try application(config: #"{"compactAfter": 0}"#, logger: logger)
    await #expect {
      try await app.boot()
    } throws: { error in
      guard let error = error as? KernelError, error.code == .hookFailed else { return false }
      return "\(error)".hasPrefix("module 'store' failed in setUp: ")
    }
    #expect(app.registrations(of: "store").isEmpty)
    #expect(logger.messages.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: directory))
  }
}

/// A logger that keeps `module: message` lines.
final class RecordingLogger: Logger {
  private let lines = Mutex<[String]>([])

  var messages: [String] { lines.withLock { $0 } }

  func log(_ level: LogLevel, _ message: String, module: String) {
    lines.withLock { $0.append("\(module): \(message)") }
  }
}
