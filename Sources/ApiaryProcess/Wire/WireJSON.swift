import ApiaryManifest
import ApiarySupport

/// Reads the JSON text of a message body into a ``JSONValue``, in one pass over the bytes.
///
/// The manifest parser (`JSONValue.parse`) records the line and column of every value and
/// checks keys for duplicates under Unicode normalisation, for messages a person reads; a
/// round trip parses two bodies, and that parser took 5–25 µs for a `perform` (more than the
/// call's budget), this one a fraction. It accepts exactly RFC 8259 JSON; nesting deeper than
/// ``maximumDepth`` is refused; of duplicate keys the last wins, as in most JSON readers.
///
/// ```swift
/// let value = try WireJSON.parse(Array(#"{"id":1,"result":[true,null]}"#.utf8))
/// ```
enum WireJSON {
  /// The deepest nesting accepted, as the writer's (``JSONWriter/maximumDepth``).
  static let maximumDepth = 512

  /// Why a body is not JSON: what was expected and the byte offset where it was not found.
  struct Problem: Error, CustomStringConvertible {
    let expected: String
    let offset: Int
    var description: String { "expected \(expected) at byte \(offset)" }
  }

  /// The value `bytes` hold, or a ``Problem``.
  static func parse(_ bytes: [UInt8]) throws(Problem) -> JSONValue {
    try bytes.withUnsafeBufferPointer { buffer throws(Problem) in
      var reader = Reader(bytes: buffer)
      let value = try reader.value(depth: 0)
      try reader.end()
      return value
    }
  }

  /// Reads `bytes` as ``parse(_:)`` does, but hands the members of a top-level object to
  /// `member` in order instead of building it, and returns nil; any other value is returned.
  /// A message's envelope is read this way: no dictionary for five keys.
  ///
  /// ```swift
  /// var id: JSONValue?
  /// _ = try WireJSON.parse(body) { key, value in if key == "id" { id = value } }
  /// ```
  static func parse(_ bytes: [UInt8], members member: (String, JSONValue) -> Void)
    throws(Problem) -> JSONValue?
  {
    try bytes.withUnsafeBufferPointer { buffer throws(Problem) in
      var reader = Reader(bytes: buffer)
      reader.skipSpace()
      guard reader.current == UInt8(ascii: "{") else {
        let value = try reader.value(depth: 0)
        try reader.end()
        return value
      }
      try reader.members(depth: 0, member)
      try reader.end()
      return nil
    }
  }

  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func problem(_ expected: String) -> Problem { Problem(expected: expected, offset: index) }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpace() {
      while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
        index += 1
      }
    }

    mutating func value(depth: Int) throws(Problem) -> JSONValue {
      guard depth <= WireJSON.maximumDepth else { throw problem("less nesting") }
      skipSpace()
      guard let byte = current else { throw problem("a value") }
      switch byte {
      case UInt8(ascii: "{"): return try object(depth: depth)
      case UInt8(ascii: "["): return try array(depth: depth)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): return try literal("true", .bool(true))
      case UInt8(ascii: "f"): return try literal("false", .bool(false))
      case UInt8(ascii: "n"): return try literal("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
      default: throw problem("a value")
      }
    }

    mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Problem) -> JSONValue {
      let count = word.utf8CodeUnitCount
      guard index + count <= bytes.count,
        (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
      else { throw problem("\(word)") }
      index += count
      return value
    }

    /// Only space may follow the value.
    mutating func end() throws(Problem) {
      skipSpace()
      guard index == bytes.count else { throw problem("the end of the text") }
    }

    mutating func object(depth: Int) throws(Problem) -> JSONValue {
      var object: [String: JSONValue] = [:]
      try members(depth: depth) { key, value in
        if object.isEmpty { object.reserveCapacity(8) }  // no growing step by step
        object[key] = value
      }
      return .object(object)
    }

    /// The members of the object at `index` (its opening brace), in order.
    mutating func members(depth: Int, _ member: (String, JSONValue) -> Void) throws(Problem) {
      index += 1  // {
      skipSpace()
      if current == UInt8(ascii: "}") {
        index += 1
        return
      }
      while true {
        skipSpace()
        guard current == UInt8(ascii: "\"") else { throw problem("a key") }
        let key = try string()
        skipSpace()
        guard current == UInt8(ascii: ":") else { throw problem("':'") }
        index += 1
        member(key, try value(depth: depth + 1))
        skipSpace()
        switch current {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "}"):
          index += 1
          return
        default: throw problem("',' or '}'")
        }
      }
    }

    mutating func array(depth: Int) throws(Problem) -> JSONValue {
      index += 1  // [
      var items: [JSONValue] = []
      skipSpace()
      if current == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      while true {
        items.append(try value(depth: depth + 1))
        skipSpace()
        switch current {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "]"):
          index += 1
          return .array(items)
        default: throw problem("',' or ']'")
        }
      }
    }

    /// A string literal at `index` (its opening quote), escapes resolved.
    mutating func string() throws(Problem) -> String {
      index += 1  // "
      let start = index
      // The common case: no escapes, so the bytes are the string.
      while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
        guard byte >= 0x20 else { throw problem("no control character in a string") }
        index += 1
      }
      guard let stop = current else { throw problem("'\"'") }
      var text = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      if stop == UInt8(ascii: "\"") {
        index += 1
        return text
      }
      var pending: [UInt8] = []
      while true {
        guard let byte = current else { throw problem("'\"'") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          text += String(decoding: pending, as: UTF8.self)
          return text
        case UInt8(ascii: "\\"):
          guard let escaped = current else { throw problem("an escape") }
          index += 1
          if let byte = JSONEscape.byte(after: escaped) {
            pending.append(byte)
          } else if escaped == UInt8(ascii: "u") {
            pending.append(contentsOf: try unicodeEscape())
          } else {
            throw problem("an escape")
          }
        case 0..<0x20: throw problem("no control character in a string")
        default: pending.append(byte)
        }
      }
    }

    /// The UTF-8 bytes of `\uXXXX` (after `\u`), joining a surrogate pair.
    mutating func unicodeEscape() throws(Problem) -> [UInt8] {
      var code = try hex4()
      if (0xD800..<0xDC00).contains(code) {
        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count,
          bytes[index + 1] == UInt8(ascii: "u")
        else { throw problem("the second half of a surrogate pair") }
        index += 2
        let low = try hex4()
        guard (0xDC00..<0xE000).contains(low) else {
          throw problem("the second half of a surrogate pair")
        }
        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
      }
      guard let scalar = Unicode.Scalar(code) else { throw problem("a Unicode scalar") }
      return Array(String(Character(scalar)).utf8)
    }

    mutating func hex4() throws(Problem) -> UInt32 {
      var code: UInt32 = 0
      for _ in 0..<4 {
        guard let byte = current, let digit = Self.hexDigit(byte) else {
          throw problem("four hex digits")
        }
        code = code << 4 | digit
        index += 1
      }
      return code
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
      default: nil
      }
    }

    /// A number: an integer when it has no fraction or exponent and fits `Int`, else a double.
    mutating func number() throws(Problem) -> JSONValue {
      let start = index
      if current == UInt8(ascii: "-") { index += 1 }
      guard try digits(leadingZeroAlone: true) else { throw problem("a digit") }
      var integral = true
      if current == UInt8(ascii: ".") {
        index += 1
        integral = false
        guard try digits(leadingZeroAlone: false) else { throw problem("a digit") }
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        index += 1
        integral = false
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
        guard try digits(leadingZeroAlone: false) else { throw problem("a digit") }
      }
      // Up to 18 digits always fit `Int`: add them up without making a string.
      let negative = bytes[start] == UInt8(ascii: "-")
      if integral, index - start - (negative ? 1 : 0) <= 18 {
        var int = 0
        for position in (negative ? start + 1 : start)..<index {
          int = int * 10 + Int(bytes[position] - UInt8(ascii: "0"))
        }
        return .int(negative ? -int : int)
      }
      let text = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      if integral, let int = Int(text) { return .int(int) }
      guard let double = Double(text), double.isFinite else { throw problem("a finite number") }
      return .double(double)
    }

    /// Skips digits; false when there were none. With `leadingZeroAlone`, a leading `0` must
    /// be the only digit (JSON has no `01`).
    mutating func digits(leadingZeroAlone: Bool) throws(Problem) -> Bool {
      let start = index
      while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        index += 1
      }
      if leadingZeroAlone, index - start > 1, bytes[start] == UInt8(ascii: "0") {
        throw problem("no leading zero")
      }
      return index > start
    }
  }
}
