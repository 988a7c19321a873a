import NotebookKit
import Testing

@testable import StorePlugin

/// The journal's line framing: checksum, torn last line, damaged complete line.
@Suite struct JournalFramingTests {
  let records: [JournalRecord] = [
    .start(generation: 2), .create(Note(id: 7, title: "Milk", body: "a\nb", pinned: true)),
    .delete(id: 7),
  ]

  func journal() throws -> [UInt8] { try records.flatMap { try JournalFraming.line(for: $0) } }

  @Test func checksumIsCRC32() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([]) == 0)
  }

  @Test func aLineIsTheChecksumASpaceAndTheJSON() throws {
    // The checksum as zlib computes it: python3 -c "import zlib; print(hex(zlib.crc32(b'…')))"
    let line = try JournalFraming.line(for: .delete(id: 7))
    #expect(String(decoding: line, as: UTF8.self) == "db90d160 {\"id\":7,\"op\":\"delete\"}\n")
  }

  @Test func linesRoundTripOneRecordPerLine() throws {
    let bytes = try journal()
    #expect(bytes.filter { $0 == UInt8(ascii: "\n") }.count == 3, "newlines in a body are escaped")
    let scan = try JournalFraming.scan(bytes)
    #expect(scan.records == records)
    #expect(scan.length == bytes.count)
  }

  @Test func aTornLastLineIsLeftOutNotReported() throws {
    let bytes = try journal()
    let whole = try JournalFraming.scan(Array(bytes.dropLast(1)))
    #expect(whole.records == Array(records.prefix(2)))
    #expect(whole.length < bytes.count - 1)
    for cut in 1..<bytes.count {
      let scan = try JournalFraming.scan(Array(bytes.prefix(cut)))
      #expect(scan.length <= cut)
      #expect(records.starts(with: scan.records))
    }
  }

  @Test func aDamagedCompleteLineIsReportedWithItsPlace() throws {
    var bytes = try journal()
    let second = try JournalFraming.line(for: records[0]).count
    let flipped = try #require(bytes[second...].firstIndex(of: UInt8(ascii: "M")))
    bytes[flipped] = UInt8(ascii: "W")  // "Milk" → "Wilk": the checksum no longer matches
    #expect(throws: JournalFraming.Damage(line: 1, offset: second, problem: "checksum mismatch")) {
      try JournalFraming.scan(bytes)
    }
    #expect(throws: JournalFraming.Damage.self) {
      try JournalFraming.scan(Array("garbage\n".utf8))
    }
  }

  @Test func aLineWhoseChecksumMatchesButIsNoRecordIsReported() throws {
    let json = Array(#"{"op":"rename"}"#.utf8)
    let crc = String(CRC32.checksum(json), radix: 16)
    let foreign =
      Array((String(repeating: "0", count: 8 - crc.count) + crc + " ").utf8) + json + [10]
    let start = try JournalFraming.line(for: records[0])
    let error = try #require(throws: JournalFraming.Damage.self) {
      try JournalFraming.scan(start + foreign)
    }
    #expect(error.line == 1 && error.offset == start.count)
    #expect(error.problem.contains("does not decode (unknown op 'rename'"), "\(error.problem)")
  }
}
