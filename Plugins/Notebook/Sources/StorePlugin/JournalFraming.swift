#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How journal records are framed: one line each, `crc32 json\n`, the checksum in 8 lowercase
/// hex digits over the JSON bytes. A line without its newline is a write a crash cut short (it
/// was never acknowledged) and is left out; a complete line that fails its checksum or does not
/// decode is damage.
///
/// ```swift
/// let line = try JournalFraming.line(for: .delete(id: 7))
/// // db90d160 {"id":7,"op":"delete"}\n
/// let scan = try JournalFraming.scan(line)
/// scan.records == [.delete(id: 7)]  // true
/// ```
enum JournalFraming {
  /// What ``scan(_:)`` read: the records of the complete lines and how many bytes they span.
  /// Bytes past `length` are a torn last write.
  struct Scan: Equatable {
    var records: [JournalRecord] = []
    var length = 0
  }

  /// A complete line that is not a valid record: its index among the scanned lines (from 0), the
  /// byte offset where it starts, and why.
  struct Damage: Error, Equatable {
    let line: Int
    let offset: Int
    let problem: String
  }

  static func line(for record: JournalRecord) throws -> [UInt8] {
    let json = try encoder.encode(record)
    var line = Array(hex(CRC32.checksum(json)).utf8)
    line.append(space)
    line.append(contentsOf: json)
    line.append(newline)
    return line
  }

  /// The records in `bytes`, which start at a line boundary.
  static func scan(_ bytes: [UInt8]) throws(Damage) -> Scan {
    var lines: [(offset: Int, json: ArraySlice<UInt8>)] = []
    var start = 0
    while let end = bytes[start...].firstIndex(of: newline) {
      do {
        lines.append((start, try checkedJSON(bytes[start..<end])))
      } catch {
        throw Damage(line: lines.count, offset: start, problem: error.problem)
      }
      start = end + 1
    }
    // One decoder call for all lines is several times faster than one per line; if it fails, a
    // line's JSON passed its checksum but is no record (written by something else): find it.
    var array: [UInt8] = [UInt8(ascii: "[")]
    for (index, line) in lines.enumerated() {
      if index > 0 { array.append(UInt8(ascii: ",")) }
      array.append(contentsOf: line.json)
    }
    array.append(UInt8(ascii: "]"))
    if let records = try? JSONDecoder().decode([JournalRecord].self, from: Data(array)) {
      return Scan(records: records, length: start)
    }
    var scan = Scan(length: start)
    for (index, line) in lines.enumerated() {
      do {
        scan.records.append(try JSONDecoder().decode(JournalRecord.self, from: Data(line.json)))
      } catch {
        throw Damage(
          line: index, offset: line.offset,
          problem: "checksum matches but the record does not decode (\(StoreError.reason(error)))")
      }
    }
    return scan
  }

  private struct LineProblem: Error {
    let problem: String
  }

  /// The JSON of `line` once its checksum matches.
  private static func checkedJSON(_ line: ArraySlice<UInt8>) throws(LineProblem)
    -> ArraySlice<UInt8>
  {
    let json = line.dropFirst(9)
    guard line.count > 9, line[line.startIndex + 8] == space,
      let expected = UInt32(String(decoding: line.prefix(8), as: UTF8.self), radix: 16)
    else { throw LineProblem(problem: "not a journal line (checksum, space, JSON)") }
    guard CRC32.checksum(json) == expected else {
      throw LineProblem(problem: "checksum mismatch")
    }
    return json
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  private static let space = UInt8(ascii: " ")
  private static let newline = UInt8(ascii: "\n")
  private static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}
