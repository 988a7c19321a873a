import Foundation
import NotebookKit
import Testing

@testable import StorePlugin

/// `FileNoteStore` on a temporary directory. Two stores on one directory stand for two
/// processes: `flock` locks belong to the open file, so they exclude each other as processes do.
@Suite struct FileNoteStoreTests {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("file-note-store-tests-\(UUID().uuidString)").path

  func entries() throws -> Set<String> {
    Set(try FileManager.default.contentsOfDirectory(atPath: directory))
  }

  @Test func twoStoresOnOneDirectorySeeEachOthersWritesAndNeverShareAnID() throws {
    let first = FileNoteStore(directory: directory, compactAfter: 3)
    let second = FileNoteStore(directory: directory, compactAfter: 3)
    var created: [Note] = []
    for round in 0..<10 {
      created.append(try first.create(title: "first \(round)", body: "", pinned: false))
      created.append(try second.create(title: "second \(round)", body: "", pinned: round == 0))
      if round == 4 { #expect(try second.delete(id: created[0].id)) }
    }
    #expect(Set(created.map(\.id)).count == created.count)
    let expected = Array(created.dropFirst())
    #expect(try first.all() == expected)
    #expect(try second.all() == expected)
    #expect(try first.note(id: created[1].id) == created[1])
    #expect(try first.note(id: created[0].id) == nil)
    #expect(try !first.delete(id: created[0].id))
    #expect(try FileNoteStore(directory: directory).all() == expected)
    #expect(try entries() == ["notes.json", "notes.journal", "notes.lock"])
  }

  @Test func compactionFoldsTheJournalIntoTheSnapshotAndKeepsIDsGrowing() throws {
    let store = FileNoteStore(directory: directory, compactAfter: 1000)
    for index in 1...5 { _ = try store.create(title: "\(index)", body: "", pinned: false) }
    #expect(try store.delete(id: 5))
    try store.compact()
    let journal = try String(contentsOfFile: store.paths.journal, encoding: .utf8)
    #expect(journal.split(separator: "\n").count == 1, "only the start line: \(journal)")
    let reopened = FileNoteStore(directory: directory)
    #expect(try reopened.all().map(\.id) == [1, 2, 3, 4])
    #expect(try reopened.create(title: "6", body: "", pinned: false).id == 6, "5 is not reused")
    #expect(try store.all().map(\.id) == [1, 2, 3, 4, 6])
  }

  @Test func theJournalIsFoldedOnceItHoldsAsManyChangesAsTheSnapshotHoldsNotes() throws {
    let store = FileNoteStore(directory: directory, compactAfter: 2)
    func journalChanges() throws -> Int {
      try String(contentsOfFile: store.paths.journal, encoding: .utf8)
        .split(separator: "\n").count - 1
    }
    var changes: [Int] = []
    for index in 1...8 {
      _ = try store.create(title: "\(index)", body: "", pinned: false)
      changes.append(try journalChanges())
    }
    // Folded at 2 changes (snapshot of 0 notes), then 2 (of 2), then 4 (of 4): doubling.
    #expect(changes == [1, 0, 1, 0, 1, 2, 3, 0])
    #expect(try FileNoteStore(directory: directory).all().count == 8)
  }

  @Test func aCompactionStoppedBetweenItsRenamesLosesAndRepeatsNothing() throws {
    let store = FileNoteStore(directory: directory)
    for index in 1...3 { _ = try store.create(title: "\(index)", body: "", pinned: false) }
    let oldJournal = try Data(contentsOf: URL(fileURLWithPath: store.paths.journal))
    try store.compact()
    // As a crash after renaming the snapshot would leave it: the old journal, and half-written
    // temporaries.
    try oldJournal.write(to: URL(fileURLWithPath: store.paths.journal))
    for temporary in store.paths.temporaries {
      try Data("{\"form".utf8).write(to: URL(fileURLWithPath: temporary))
    }
    let reopened = FileNoteStore(directory: directory)
    #expect(try reopened.all().map(\.title) == ["1", "2", "3"])
    #expect(try entries() == ["notes.json", "notes.journal", "notes.lock"])
    #expect(try reopened.create(title: "4", body: "", pinned: false).id == 4)
    #expect(try store.all().map(\.title) == ["1", "2", "3", "4"], "the first store reloads")
  }

  @Test func aCompactionThatFailsAfterTheSnapshotLosesNoLaterChange() throws {
    let store = FileNoteStore(directory: directory)
    for index in 1...3 { _ = try store.create(title: "\(index)", body: "", pinned: false) }
    // A directory where the new journal would be written makes the second half fail.
    let blocker = store.paths.journal + ".tmp"
    try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: false)
    #expect(throws: StoreError.self) { try store.compact() }
    try FileManager.default.removeItem(atPath: blocker)
    _ = try store.create(title: "4", body: "", pinned: false)
    #expect(try FileNoteStore(directory: directory).all().map(\.title) == ["1", "2", "3", "4"])
  }

  @Test func aTornLastRecordIsCutOffByTheNextOpen() throws {
    let store = FileNoteStore(directory: directory)
    _ = try store.create(title: "kept", body: "", pinned: false)
    let line = try JournalFraming.line(for: .create(Note(id: 2, title: "torn")))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: store.paths.journal))
    try handle.seekToEnd()
    try handle.write(contentsOf: line.dropLast(5))
    try handle.close()
    #expect(try store.all().map(\.title) == ["kept"])
    #expect(try store.create(title: "next", body: "", pinned: false).id == 2)
    #expect(try FileNoteStore(directory: directory).all().map(\.title) == ["kept", "next"])
  }

  @Test func aSnapshotFromEarlierVersionsStillReads() throws {
    let notes = [Note(id: 1, title: "old"), Note(id: 4, title: "older", pinned: true)]
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try JSONEncoder().encode(notes).write(to: URL(fileURLWithPath: directory + "/notes.json"))
    let store = FileNoteStore(directory: directory)
    #expect(try store.all() == notes)
    #expect(try store.create(title: "new", body: "", pinned: false).id == 5)
  }

  @Test func numbersTooLargeToGrowAreDamageNotATrap() throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let snapshot = URL(fileURLWithPath: directory + "/notes.json")
    for (text, problem) in [
      (#"{"format":1,"generation":1,"nextID":\#(Int.max),"notes":[]}"#, "nextID \(Int.max)"),
      (#"{"format":1,"generation":\#(Int.max),"nextID":1,"notes":[]}"#, "generation \(Int.max)"),
      (#"[{"body":"","id":\#(Int.max),"pinned":false,"title":"x"}]"#, "id \(Int.max)"),
    ] {
      try Data(text.utf8).write(to: snapshot)
      let damage = try openingDamage()
      #expect(
        damage.contains(
          "notes.json is damaged: \(problem) is out of range (0 to 9007199254740992)"),
        "\(damage)")
    }
    try FileManager.default.removeItem(at: snapshot)
    let store = FileNoteStore(directory: directory)
    _ = try store.create(title: "a", body: "", pinned: false)
    let line = try JournalFraming.line(for: .create(Note(id: Int.max, title: "x")))
    let journal = try FileHandle(forWritingTo: URL(fileURLWithPath: store.paths.journal))
    journal.seekToEndOfFile()
    journal.write(Data(line))
    journal.closeFile()
    let damage = try openingDamage()
    #expect(damage.contains("id \(Int.max) is out of range") && damage.contains("sed -i '3d'"))
  }

  /// What opening a store on the directory fails with.
  func openingDamage() throws -> String {
    "\(try #require(throws: StoreError.self) { try FileNoteStore(directory: directory).open() })"
  }

  @Test func aDamagedJournalBesideASnapshotOffersToStartFromTheSnapshot() throws {
    let store = FileNoteStore(directory: directory, compactAfter: 1000)
    _ = try store.create(title: "kept", body: "", pinned: false)
    try store.compact()
    for title in ["a", "b"] { _ = try store.create(title: title, body: "", pinned: false) }
    var lines = try String(contentsOfFile: store.paths.journal, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    lines[2] = lines[2].replacingOccurrences(of: "\"b\"", with: "\"X\"")
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: store.paths.journal, atomically: false, encoding: .utf8)
    let error = try #require(throws: StoreError.self) {
      try FileNoteStore(directory: directory).all()
    }
    #expect("\(error)".contains("sed -i '3d'"), "\(error)")
    #expect("\(error)".contains("to start from notes.json alone: mv"), "\(error)")
  }

  @Test func damagedFilesAreNamedWithTheCommandThatGetsGoing() throws {
    let store = FileNoteStore(directory: directory)
    for index in 1...3 { _ = try store.create(title: "\(index)", body: "", pinned: false) }
    var lines = try String(contentsOfFile: store.paths.journal, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    lines[2] = lines[2].replacingOccurrences(of: "\"2\"", with: "\"X\"")
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: store.paths.journal, atomically: false, encoding: .utf8)
    let error = try #require(throws: StoreError.self) {
      try FileNoteStore(directory: directory).all()
    }
    #expect("\(error)".contains("notes.journal is damaged: checksum mismatch (line 3"), "\(error)")
    #expect("\(error)".contains("sed -i '3d' '\(store.paths.journal)'"), "\(error)")
    // No compaction yet, so no notes.json: moving the journal aside starts with no notes.
    #expect("\(error)".contains("to start with no notes (there is no notes.json yet"), "\(error)")
    #expect(!"\(error)".contains("from notes.json alone"), "\(error)")

    try Data("garbage".utf8).write(to: URL(fileURLWithPath: store.paths.snapshot))
    let snapshotError = try #require(throws: StoreError.self) {
      try FileNoteStore(directory: directory).open()
    }
    #expect(
      "\(snapshotError)".contains(
        "notes.json is damaged: not a note store snapshot (The given data was not valid JSON.)"),
      "\(snapshotError)")
    #expect(
      "\(snapshotError)".contains("mv '\(store.paths.snapshot)' '\(store.paths.snapshot).damaged'"))
  }
}
