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
  /// The largest id, next id or generation the store reads: 2^53, the largest integer JSON
  /// carries exactly. Each grows by one, so a hand-edited number this large cannot overflow.
  static let largestNumber = 1 << 53

  /// Why `number`, an id, next id or generation named `name`, is not one the store reads; nil
  /// when it is.
  static func rangeProblem(_ name: String, _ number: Int) -> String? {
    guard !(0...largestNumber).contains(number) else { return nil }
    return "\(name) \(number) is out of range (0 to \(largestNumber))"
  }

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
        self.init(generation: 0, nextID: 1, notes: notes)  // the ids' successor, below
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
    for (name, number) in [("generation", generation), ("nextID", nextID)]
      + notes.map({ ("id", $0.id) })
    {
      if let problem = Snapshot.rangeProblem(name, number) {
        throw .damaged(file: file, problem: problem, remedy: remedy)
      }
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
