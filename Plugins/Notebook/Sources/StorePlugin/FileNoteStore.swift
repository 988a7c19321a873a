import NotebookKit
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps notes in a data directory that several processes may share, and in memory.
///
/// The directory holds `notes.json` (a ``Snapshot``), `notes.journal` (every change since the
/// snapshot, one ``JournalRecord`` per line, framed by ``JournalFraming``) and `notes.lock`.
/// Every operation holds an exclusive `flock` on `notes.lock`, first reads what other processes
/// appended since this one last looked (only the journal's new tail), and a change is appended
/// and flushed (`fdatasync`) before it returns. Once the journal holds as many changes as the
/// snapshot holds notes (and at least `compactAfter`), it is folded into a new snapshot, so the
/// files stay within about twice the live data and each note is rewritten a bounded number of
/// times.
///
/// ```swift
/// let store = FileNoteStore(directory: ".apiary-data")
/// try store.open()
/// let note = try store.create(title: "Milk", body: "", pinned: false)
/// try store.all().contains(note)  // true, in this process and any other
/// ```
final class FileNoteStore: NoteStore {
  /// The files in the data directory.
  struct Paths {
    let directory: String
    var snapshot: String { directory + "/notes.json" }
    var journal: String { directory + "/notes.journal" }
    var lock: String { directory + "/notes.lock" }
    /// Written in full, flushed, then renamed over the file of the same name without `.tmp`.
    var temporaries: [String] { [snapshot + ".tmp", journal + ".tmp"] }
  }

  let paths: Paths
  private let compactAfter: Int
  private let state = Mutex(State())

  /// What this process knows of the directory, and the files it keeps open to know it.
  private struct State {
    var lock: OpenFile?
    /// The snapshot and journal read last (kept open so their identities stay unique) and the
    /// identities of the paths then: when a path names another file, another process compacted.
    var snapshot: OpenFile?
    var snapshotIdentity: FileIdentity?
    var journal: OpenFile?
    var journalIdentity: FileIdentity?
    /// Bytes and records of the journal already applied (the `start` line included).
    var journalLength = 0
    var journalRecords = 0
    /// Notes in the snapshot read or written last.
    var snapshotNotes = 0
    var generation = 0
    var nextID = 1
    /// Live notes, sorted by id (the order they were created in).
    var notes: [Note] = []
  }

  /// A store in `directory` (created on open) that compacts once the journal holds at least
  /// `compactAfter` changes (at least 1) and as many changes as the snapshot holds notes.
  init(directory: String, compactAfter: Int = 1000) {
    paths = Paths(directory: directory)
    self.compactAfter = compactAfter
  }

  deinit {
    state.withLock { state in
      for file in [state.lock, state.snapshot, state.journal] { file?.close() }
    }
  }

  /// Creates the directory, removes temporaries a crash left, and reads the notes. Other calls
  /// open the store on first use; call this to report a damaged store early.
  func open() throws {
    try locked { _ in }
  }

  func create(title: String, body: String, pinned: Bool) throws -> Note {
    try locked { state in
      let note = Note(id: state.nextID, title: title, body: body, pinned: pinned)
      try append(.create(note), to: &state)
      return note
    }
  }

  func all() throws -> [Note] { try locked { $0.notes } }

  func note(id: Int) throws -> Note? {
    try locked { state in state.notes.position(ofID: id).map { state.notes[$0] } }
  }

  func delete(id: Int) throws -> Bool {
    try locked { state in
      guard state.notes.position(ofID: id) != nil else { return false }
      try append(.delete(id: id), to: &state)
      return true
    }
  }

  /// Folds the journal into a new snapshot now.
  func compact() throws {
    try locked { state in try compact(&state) }
  }

  // MARK: Reading what other processes wrote

  /// Runs `body` holding the directory lock, on state that includes every change made so far by
  /// any process.
  private func locked<T: Sendable>(_ body: (inout State) throws -> T) throws -> T {
    try state.withLock { state in
      let lock = try state.lock ?? openLock()
      state.lock = lock
      try lock.lock()
      defer { lock.unlock() }
      try catchUp(&state)
      return try body(&state)
    }
  }

  private func openLock() throws(StoreError) -> OpenFile {
    try OpenFile.createDirectory(paths.directory)
    guard let lock = try OpenFile(paths.lock, create: true) else {
      throw .system(operation: "open", file: paths.lock, code: ENOENT)
    }
    return lock
  }

  /// Applies the journal's new tail, or reads everything again when another process replaced
  /// the snapshot or the journal.
  private func catchUp(_ state: inout State) throws {
    guard let journal = state.journal,
      try OpenFile.identity(at: paths.snapshot) == state.snapshotIdentity,
      try OpenFile.identity(at: paths.journal) == state.journalIdentity
    else { return try reload(&state) }
    let size = try journal.size
    guard size != state.journalLength else { return }
    guard size > state.journalLength else { return try reload(&state) }
    let tail = try journal.read(from: state.journalLength, count: size - state.journalLength)
    let scan = try scanJournal(tail, from: state.journalLength, records: state.journalRecords)
    try checkNoStart(in: scan.records, firstLine: state.journalRecords + 1)
    for record in scan.records { apply(record, to: &state) }
    state.journalLength += scan.length
    state.journalRecords += scan.records.count
    if scan.length < tail.count { try dropTornTail(of: journal, at: state.journalLength) }
  }

  /// Reads the snapshot and the whole journal, and repairs what a crash left: temporaries are
  /// removed (none exist while no one holds the lock), a torn last record is cut off, and a
  /// journal older than the snapshot (a compaction stopped between its two renames) is already
  /// in the snapshot and is replaced by an empty one. On failure nothing half-read is kept.
  private func reload(_ state: inout State) throws {
    for file in [state.snapshot, state.journal] { file?.close() }
    state = State(lock: state.lock)
    var fresh = state
    do {
      try load(&fresh)
      state = fresh
    } catch {
      for file in [fresh.snapshot, fresh.journal] { file?.close() }
      throw error
    }
  }

  private func load(_ state: inout State) throws {
    for temporary in paths.temporaries { try OpenFile.remove(temporary) }
    if let snapshot = try OpenFile(paths.snapshot) {
      state.snapshot = snapshot
      state.snapshotIdentity = try snapshot.identity
      let contents = try Snapshot(try snapshot.readAll(), file: paths.snapshot)
      state.generation = contents.generation
      state.nextID = contents.nextID
      state.notes = contents.notes
      state.snapshotNotes = contents.notes.count
    }
    if let journal = try OpenFile(paths.journal) {
      state.journal = journal
      state.journalIdentity = try journal.identity
      let bytes = try journal.readAll()
      let scan = try scanJournal(bytes, from: 0, records: 0)
      switch scan.records.first {
      case .start(let generation)? where generation >= state.generation:
        let changes = scan.records.dropFirst()
        try checkNoStart(in: changes, firstLine: 2)
        state.generation = generation
        for record in changes { apply(record, to: &state) }
        state.journalLength = scan.length
        state.journalRecords = scan.records.count
        if scan.length < bytes.count { try dropTornTail(of: journal, at: scan.length) }
        return
      case .start?:
        break  // older than the snapshot, which holds its changes
      case nil where bytes.isEmpty:
        break
      default:
        throw damagedJournal(line: 1, problem: "the first line is not a start record")
      }
    }
    try startJournal(&state)
  }

  private func checkNoStart(in records: some Collection<JournalRecord>, firstLine: Int) throws {
    for (index, record) in records.enumerated() {
      guard case .start = record else { continue }
      throw damagedJournal(line: firstLine + index, problem: "a start record after line 1")
    }
  }

  private func scanJournal(_ bytes: [UInt8], from offset: Int, records: Int) throws
    -> JournalFraming.Scan
  {
    do {
      return try JournalFraming.scan(bytes)
    } catch {
      throw damagedJournal(
        line: records + error.line + 1,
        problem:
          "\(error.problem) (line \(records + error.line + 1), byte \(offset + error.offset))")
    }
  }

  private func damagedJournal(line: Int, problem: String) -> StoreError {
    let journal = StoreError.shellQuoted(paths.journal)
    let moveAside = "mv \(journal) \(StoreError.shellQuoted(paths.journal + ".damaged"))"
    // Until the first compaction there is no snapshot, and every note is in the journal.
    let start =
      (try? OpenFile.identity(at: paths.snapshot)) != nil
      ? "start from notes.json alone"
      : "start with no notes (there is no notes.json yet: every note is in the journal)"
    let remedy =
      line == 1
      ? "To \(start), move it aside: \(moveAside)"
      : "To drop that change alone: sed -i '\(line)d' \(journal); to \(start): \(moveAside)"
    return .damaged(file: paths.journal, problem: problem, remedy: remedy)
  }

  /// Cuts off bytes a writer that died mid-append left; no other writer runs while we hold the
  /// lock, and the change they began was never acknowledged.
  private func dropTornTail(of journal: OpenFile, at length: Int) throws {
    try journal.truncate(to: length)
    try journal.synchronizeData()
  }

  private func apply(_ record: JournalRecord, to state: inout State) {
    switch record {
    case .start: break
    case .create(let note):
      let index = state.notes.insertionPoint(forID: note.id)
      if index < state.notes.count, state.notes[index].id == note.id {
        state.notes[index] = note
      } else {
        state.notes.insert(note, at: index)
      }
      state.nextID = max(state.nextID, note.id + 1)
    case .delete(let id):
      if let index = state.notes.position(ofID: id) { state.notes.remove(at: index) }
    }
  }

  // MARK: Writing

  /// Appends `record` and flushes it, then applies it; compacts when the journal has grown.
  private func append(_ record: JournalRecord, to state: inout State) throws {
    guard let journal = state.journal else {
      throw StoreError.system(operation: "append to", file: paths.journal, code: EBADF)
    }
    let line = try JournalFraming.line(for: record)
    do {
      try journal.write(line, at: state.journalLength)
      try journal.synchronizeData()
    } catch {
      try? journal.truncate(to: state.journalLength)
      throw error
    }
    state.journalLength += line.count
    state.journalRecords += 1
    apply(record, to: &state)
    if state.journalRecords - 1 >= max(compactAfter, state.snapshotNotes) {
      // The change is durable: a failed compaction leaves the files readable (a later call
      // reloads them) and is retried by the next write, so it must not fail this call.
      try? compact(&state)
    }
  }

  /// Writes the live notes as snapshot `generation + 1`, then replaces the journal with an empty
  /// one of that generation. A crash before the first rename leaves the old files; between the
  /// renames, a journal older than the snapshot, which ``reload(_:)`` discards.
  private func compact(_ state: inout State) throws {
    let generation = state.generation + 1
    let snapshot = Snapshot(generation: generation, nextID: state.nextID, notes: state.notes)
    let opened = try replace(paths.snapshot, with: try snapshot.encoded())
    state.snapshot?.close()
    state.snapshot = opened
    state.snapshotIdentity = try opened.identity
    state.snapshotNotes = snapshot.notes.count
    state.generation = generation
    do {
      try startJournal(&state)
    } catch {
      // The old journal is now older than the snapshot: forget it, so the next call reloads
      // (and replaces it) instead of appending changes that a reload would ignore.
      state.journal?.close()
      state.journal = nil
      throw error
    }
  }

  /// Replaces the journal with one holding only the `start` line of `state.generation`.
  private func startJournal(_ state: inout State) throws {
    let start = try JournalFraming.line(for: .start(generation: state.generation))
    let journal = try replace(paths.journal, with: start)
    state.journal?.close()
    state.journal = journal
    state.journalIdentity = try journal.identity
    state.journalLength = start.count
    state.journalRecords = 1
  }

  /// Writes `bytes` to `path.tmp`, flushes it, renames it over `path` and flushes the directory,
  /// so `path` holds the old bytes or the new ones after any crash. Returns the new file, open.
  private func replace(_ path: String, with bytes: [UInt8]) throws -> OpenFile {
    let temporary = path + ".tmp"
    guard let file = try OpenFile(temporary, create: true, truncate: true) else {
      throw StoreError.system(operation: "create", file: temporary, code: ENOENT)
    }
    do {
      try file.write(bytes, at: 0)
      try file.synchronize()
      try OpenFile.move(temporary, to: path)
      try OpenFile.synchronizeDirectory(paths.directory)
      return file
    } catch {
      file.close()
      try? OpenFile.remove(temporary)
      throw error
    }
  }
}

extension [Note] {
  /// Where a note with `id` is or would go, in notes sorted by id.
  fileprivate func insertionPoint(forID id: Int) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle].id < id { low = middle + 1 } else { high = middle }
    }
    return low
  }

  fileprivate func position(ofID id: Int) -> Int? {
    let index = insertionPoint(forID: id)
    return index < count && self[index].id == id ? index : nil
  }
}
