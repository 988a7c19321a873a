import NotebookKit

/// One change in the journal. The first line of a journal is `start`; each later line is a
/// `create` or a `delete`. Encoded as one JSON object:
///
/// ```json
/// {"generation":3,"op":"start"}
/// {"note":{"body":"","id":7,"pinned":false,"title":"Milk"},"op":"create"}
/// {"id":7,"op":"delete"}
/// ```
enum JournalRecord: Equatable, Sendable {
  /// Opens a journal that continues the snapshot of the same `generation`.
  case start(generation: Int)
  case create(Note)
  case delete(id: Int)
}

extension JournalRecord: Codable {
  private enum CodingKeys: String, CodingKey {
    case op, generation, note, id
  }

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: CodingKeys.self)
    switch try fields.decode(String.self, forKey: .op) {
    case "start": self = .start(generation: try Self.number(fields, .generation))
    case "create":
      let note = try fields.decode(Note.self, forKey: .note)
      if let problem = Snapshot.rangeProblem("id", note.id) {
        throw DecodingError.dataCorruptedError(forKey: .note, in: fields, debugDescription: problem)
      }
      self = .create(note)
    case "delete": self = .delete(id: try Self.number(fields, .id))
    case let other:
      throw DecodingError.dataCorruptedError(
        forKey: .op, in: fields, debugDescription: "unknown op '\(other)'")
    }
  }

  /// An id or generation, at most ``Snapshot/largestNumber``.
  private static func number(_ fields: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys)
    throws -> Int
  {
    let number = try fields.decode(Int.self, forKey: key)
    if let problem = Snapshot.rangeProblem(key.stringValue, number) {
      throw DecodingError.dataCorruptedError(forKey: key, in: fields, debugDescription: problem)
    }
    return number
  }

  func encode(to encoder: any Encoder) throws {
    var fields = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .start(let generation):
      try fields.encode("start", forKey: .op)
      try fields.encode(generation, forKey: .generation)
    case .create(let note):
      try fields.encode("create", forKey: .op)
      try fields.encode(note, forKey: .note)
    case .delete(let id):
      try fields.encode("delete", forKey: .op)
      try fields.encode(id, forKey: .id)
    }
  }
}
