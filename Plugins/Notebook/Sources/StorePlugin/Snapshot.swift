import NotebookKit

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The contents of `notes.json`: every live note when the journal of the same `generation`
/// began, and the next id to hand out (ids are never reused, even after a delete).
///
/// ```json
/// {"format":1,"generation":3,"nextID":8,"notes":[{"body":"","id":7,"pinned":false,"title":"Milk"}]}
/// ```
///
/// A bare array of notes, what earlier versions wrote, reads as generation 0.
struct Snapshot: Codable, Equatable {
  static let format = 1

  var format = Snapshot.format
  var generation: Int
  var nextID: Int
  var notes: [Note]

  init(generation: Int, nextID: Int, notes: [Note]) {
    self.generation = generation
    self.nextID = nextID
    self.notes = notes
  }

  /// Reads `bytes` from `file`, checking what a hand edit could break.
  init(_ bytes: [UInt8], file: String) throws(StoreError) {
    let remedy = StoreError.moveAside(file, keeping: "the journal alone")
    do {
      if bytes.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == UInt8(ascii: "[") {
        let notes = try JSONDecoder().decode([Note].self, from: Data(bytes))
        self.init(generation: 0, nextID: (notes.map(\.id).max() ?? 0) + 1, notes: notes)
      } else {
        self = try JSONDecoder().decode(Snapshot.self, from: Data(bytes))
      }
    } catch {
      throw .damaged(
        file: file, problem: "not a note store snapshot (\(StoreError.reason(error)))",
        remedy: remedy)
    }
    guard format == Snapshot.format else {
      throw .damaged(
        file: file, problem: "format \(format), this store reads \(Snapshot.format)",
        remedy: remedy)
    }
    notes.sort { $0.id < $1.id }
    for (earlier, later) in zip(notes, notes.dropFirst()) where earlier.id == later.id {
      throw .damaged(file: file, problem: "note id \(later.id) appears twice", remedy: remedy)
    }
    nextID = max(nextID, (notes.last?.id ?? 0) + 1)
  }

  func encoded() throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(self))
  }
}
