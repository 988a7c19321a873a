import ApiarySupport

/// A strict JSON parser (RFC 8259) over UTF-8 bytes that records the line and column of every
/// value and key, reports syntax errors as `line:column` with what it expected and found, and
/// reports duplicate keys (also keys that differ only in Unicode normalisation). It is iterative,
/// so nesting is bounded by ``ManifestLimits/depth`` rather than by the stack, and linear in the
/// input. Problems never quote input that did not parse (the file may not be a manifest at all).
///
/// Columns count Unicode scalars, as editors do; lines are separated by `\n` (`\r\n` works too).
struct JSONParser {
  /// Parses `bytes`, naming `file` in problems. `root` is nil after a syntax error or a limit,
  /// which is then the last problem; duplicate keys found before it are reported too.
  static func parse(
    _ bytes: UnsafeRawBufferPointer, file: String, limits: ManifestLimits = .default
  ) -> (root: ManifestNode?, problems: [ManifestProblem]) {
    var parser = JSONParser(bytes: bytes.bindMemory(to: UInt8.self), file: file, limits: limits)
    do {
      let root = try parser.parseDocument()
      return (root, parser.problems)
    } catch {
      return (nil, parser.problems + [error])
    }
  }

  private struct Frame {
    var isObject: Bool
    var line: Int
    var column: Int
    var items: [ManifestNode] = []
    var members: [ManifestNode.Member] = []
    var key = ""
    var keyLine = 0
    var keyColumn = 0
  }

  let bytes: UnsafeBufferPointer<UInt8>
  let file: String
  let limits: ManifestLimits
  /// Values parsed so far, against ``ManifestLimits/values``.
  var values = 0
  private var problems: [ManifestProblem] = []
  private var stack: [Frame] = []
  var index = 0
  var line = 1
  var lineStart = 0
  /// UTF-8 continuation bytes already passed on the current line, so columns count scalars.
  var continuationBytesOnLine = 0
  /// Where a module file's decoder shares values repeated across modules; nil for none.
  var repeated: RepeatedValues?

  init(bytes: UnsafeBufferPointer<UInt8>, file: String, limits: ManifestLimits) {
    self.bytes = bytes
    self.file = file
    self.limits = limits
  }

  var column: Int { index - lineStart - continuationBytesOnLine + 1 }

  var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func parseDocument() throws(ManifestProblem) -> ManifestNode {
    skipByteOrderMark()
    skipWhitespace()
    nextValue: while true {
      var value: ManifestNode
      let line = self.line
      let column = self.column
      guard let byte = current else { throw unexpected("a value") }
      values += 1
      guard values <= limits.values else {
        throw limits.valuesProblem(at: location(line: line, column: column))
      }
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let isObject = byte == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        index += 1
        skipWhitespace()
        if current == close {
          index += 1
          value = ManifestNode(
            value: isObject ? .object([]) : .array([]), line: line, column: column)
        } else {
          guard stack.count < limits.depth else {
            throw limits.depthProblem(at: location(line: line, column: column))
          }
          var frame = Frame(isObject: isObject, line: line, column: column)
          // Most manifest objects have a handful of members: skip the first growth steps.
          if isObject { frame.members.reserveCapacity(8) } else { frame.items.reserveCapacity(4) }
          stack.append(frame)
          if isObject { try parseKey() }
          continue nextValue
        }
      case UInt8(ascii: "\""):
        value = ManifestNode(value: .string(try parseString()), line: line, column: column)
      case UInt8(ascii: "t"):
        try parseLiteral("true")
        value = ManifestNode(value: .bool(true), line: line, column: column)
      case UInt8(ascii: "f"):
        try parseLiteral("false")
        value = ManifestNode(value: .bool(false), line: line, column: column)
      case UInt8(ascii: "n"):
        try parseLiteral("null")
        value = ManifestNode(value: .null, line: line, column: column)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        value = ManifestNode(value: try parseNumber(), line: line, column: column)
      default:
        throw unexpected("a value")
      }
      // Attach the finished value to its container; close containers as far as possible.
      while true {
        skipWhitespace()
        guard !stack.isEmpty else {
          if current != nil { throw unexpected("end of file after the top-level value") }
          return value
        }
        let top = stack.count - 1
        if stack[top].isObject {
          // Read the pending key by field: copying the frame would share (and so copy on
          // append) its member array.
          let member = ManifestNode.Member(
            key: stack[top].key, line: stack[top].keyLine, column: stack[top].keyColumn,
            value: value)
          stack[top].members.append(member)
          switch current {
          case UInt8(ascii: ","):
            index += 1
            skipWhitespace()
            try parseKey()
            continue nextValue
          case UInt8(ascii: "}"):
            index += 1
            reportDuplicateKeys()
            let done = stack.removeLast()
            value = ManifestNode(value: .object(done.members), line: done.line, column: done.column)
          default:
            throw unexpected("',' or '}' after object member")
          }
        } else {
          stack[top].items.append(value)
          switch current {
          case UInt8(ascii: ","):
            index += 1
            skipWhitespace()
            continue nextValue
          case UInt8(ascii: "]"):
            index += 1
            let done = stack.removeLast()
            value = ManifestNode(value: .array(done.items), line: done.line, column: done.column)
          default:
            throw unexpected("',' or ']' after array element")
          }
        }
      }
    }
  }

  /// Steps over a UTF-8 byte order mark at the start of the document, if there is one.
  mutating func skipByteOrderMark() {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      index = 3
      lineStart = 3
    }
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0D:
        index += 1
      case 0x0A:
        index += 1
        line += 1
        lineStart = index
        continuationBytesOnLine = 0
      default:
        return
      }
    }
  }

  /// Parses `"key" :` into the top frame, leaving the index at the member's value.
  private mutating func parseKey() throws(ManifestProblem) {
    guard current == UInt8(ascii: "\"") else { throw unexpected("a string key") }
    let line = self.line
    let column = self.column
    let key = try parseString()
    let top = stack.count - 1
    stack[top].key = key
    stack[top].keyLine = line
    stack[top].keyColumn = column
    skipWhitespace()
    guard current == UInt8(ascii: ":") else { throw unexpected("':' after object key") }
    index += 1
    skipWhitespace()
  }

  mutating func parseLiteral(_ word: StaticString) throws(ManifestProblem) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count,
      (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
    else { throw unexpected("a value") }
    index += count
  }

  mutating func parseNumber() throws(ManifestProblem) -> ManifestNode.Value {
    let start = index
    let startColumn = column
    let isNegative = current == UInt8(ascii: "-")
    if isNegative { index += 1 }
    var isInteger = true
    guard isDigit(current) else { throw unexpected("a digit") }
    if current == UInt8(ascii: "0") {
      index += 1
      if isDigit(current) {
        throw unexpected("'.', 'e' or the end of the number after a leading 0")
      }
    } else {
      while isDigit(current) { index += 1 }
    }
    if current == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard isDigit(current) else { throw unexpected("a digit after '.'") }
      while isDigit(current) { index += 1 }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard isDigit(current) else { throw unexpected("a digit in the exponent") }
      while isDigit(current) { index += 1 }
    }
    if isInteger {
      // Accumulate negatively so that Int.min parses.
      var value = 0
      var overflow = false
      for position in (isNegative ? start + 1 : start)..<index where !overflow {
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (next, o2) = times10.subtractingReportingOverflow(Int(bytes[position] &- 0x30))
        value = next
        overflow = o1 || o2
      }
      if !overflow, isNegative { return .int(value) }
      if !overflow, value != Int.min { return .int(-value) }
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard !isInteger else {
      // Refused, not rounded to a Double: it would lose its last digits unseen.
      throw syntax(
        "integer \(text.count > 40 ? text.prefix(40) + "…" : Substring(text)) is out of range: "
          + "integers are from \(Int.min) to \(Int.max) (where an approximate value will do, "
          + "write it with an exponent, such as 1.5e30)",
        line: line, column: startColumn)
    }
    guard let value = Double(text), value.isFinite else {
      throw syntax(
        "number \(text.prefix(40)) is out of range", line: line, column: startColumn)
    }
    return .double(value)
  }

  private func isDigit(_ byte: UInt8?) -> Bool {
    guard let byte else { return false }
    return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// Parses a string starting at its opening quote. Plain strings become a `String` with a
  /// single copy; escapes take a slower path.
  mutating func parseString() throws(ManifestProblem) -> String {
    index += 1
    let start = index
    var isASCII = true
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let text = try makeString(UnsafeBufferPointer(rebasing: bytes[start..<index]), isASCII)
        index += 1
        return text
      }
      if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
      if byte < 0x20 { throw unexpected("'\"' to close the string") }
      if byte >= 0x80 { isASCII = false }
      index += 1
    }
    throw unexpected("'\"' to close the string")
  }

  private mutating func parseEscapedString(from start: Int) throws(ManifestProblem) -> String {
    var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
    var isASCII = !buffer.contains { $0 >= 0x80 }
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        let text = try buffer.withUnsafeBufferPointer { (utf8) throws(ManifestProblem) in
          try makeString(utf8, isASCII)
        }
        index += 1
        return text
      case UInt8(ascii: "\\"):
        index += 1
        guard let escape = current else { throw unexpected("an escape character") }
        index += 1
        if let decoded = JSONEscape.byte(after: escape) {
          buffer.append(decoded)
          continue
        }
        switch escape {
        case UInt8(ascii: "u"):
          var scalar = try parseHex4()
          if (0xD800...0xDBFF).contains(scalar) {
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count,
              bytes[index + 1] == UInt8(ascii: "u")
            else { throw unexpected("'\\u' with the low half of a surrogate pair") }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else {
              index -= 4
              throw unexpected("the low half of a surrogate pair (DC00–DFFF)")
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let unicode = Unicode.Scalar(scalar) else {
            index -= 4
            throw unexpected("a high surrogate (D800–DBFF) before a low one")
          }
          if scalar >= 0x80 { isASCII = false }
          UTF8.encode(unicode) { buffer.append($0) }
        default:
          index -= 1
          throw unexpected("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after '\\'")
        }
      default:
        if byte < 0x20 { throw unexpected("'\"' to close the string") }
        if byte >= 0x80 { isASCII = false }
        buffer.append(byte)
        index += 1
      }
    }
    throw unexpected("'\"' to close the string")
  }

  private mutating func parseHex4() throws(ManifestProblem) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current else { throw unexpected("4 hexadecimal digits after '\\u'") }
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw unexpected("4 hexadecimal digits after '\\u'")
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  /// Makes a `String`, checking UTF-8 when the bytes are not all ASCII.
  private mutating func makeString(_ utf8: UnsafeBufferPointer<UInt8>, _ isASCII: Bool)
    throws(ManifestProblem) -> String
  {
    if isASCII { return String(decoding: utf8, as: UTF8.self) }
    guard let text = String(validating: utf8, as: UTF8.self) else {
      throw syntax("invalid UTF-8 in string", line: line, column: column)
    }
    continuationBytesOnLine += utf8.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 1 : 0) }
    return text
  }

  private mutating func reportDuplicateKeys() {
    let members = stack[stack.count - 1].members
    for (position, first) in ManifestNode.repeatedKeys(members) {
      let member = members[position]
      let path = keyPath(frames: stack.count - 1)
      problems.append(
        ManifestProblem(
          .duplicateKey,
          at: SourceLocation(
            file: file, keyPath: path.isEmpty ? member.key : "\(path).\(member.key)",
            line: member.line, column: member.column),
          ManifestNode.repeatedKeyMessage(
            member.key, first: members[first].key,
            at: "line \(members[first].line), column \(members[first].column)")))
    }
  }

  /// The key path of the value being parsed inside the first `frames` open containers.
  private func keyPath(frames: Int) -> String {
    var path = ""
    for frame in stack.prefix(frames) {
      if frame.isObject {
        path += path.isEmpty ? frame.key : ".\(frame.key)"
      } else {
        path += "[\(frame.items.count)]"
      }
    }
    return path
  }

  private func syntax(_ message: String, line: Int, column: Int) -> ManifestProblem {
    ManifestProblem(.syntax, at: location(line: line, column: column), message)
  }

  private func location(line: Int, column: Int) -> SourceLocation {
    SourceLocation(file: file, keyPath: keyPath(frames: stack.count), line: line, column: column)
  }

  /// "expected X, found Y" at the current index, with an exact scalar column.
  func unexpected(_ expected: String) -> ManifestProblem {
    let lineBytes = UnsafeBufferPointer(rebasing: bytes[lineStart..<min(index, bytes.count)])
    let column = lineBytes.reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    return syntax("expected \(expected), found \(found)", line: line, column: column)
  }

  /// Describes the input at the index without quoting it, unless it is JSON punctuation: `'}'`,
  /// `a letter`, `end of file`. The file may be anything (a path in `modules` can name any
  /// file), so its bytes are never echoed.
  private var found: String {
    guard let byte = current else { return "end of file" }
    switch byte {
    case 0x0A, 0x0D: return "end of line"
    case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
      UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "-"),
      UInt8(ascii: "."), UInt8(ascii: "\\"):
      return "'\(Character(Unicode.Scalar(byte)))'"
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return "a digit"
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
      return "a letter"
    case 0..<0x20, 0x7F: return "a control character"
    case 0x80...: return "a non-ASCII character"
    case UInt8(ascii: "/"): return "'/' (JSON has no comments)"
    default: return "another character"
    }
  }
}

extension JSONValue {
  /// Parses JSON text (linear, nesting bounded by ``JSONParser/maximumDepth``), for values that
  /// come from outside manifests, such as a URL's `object` parameter, by a manifest's rules: a
  /// syntax error, the depth limit or a repeated key is the message of the failure.
  package static func parse(_ text: String) -> Result<JSONValue, ManifestProblem> {
    var text = text
    let parsed = text.withUTF8 { bytes in
      JSONParser.parse(UnsafeRawBufferPointer(bytes), file: "JSON text")
    }
    guard let root = parsed.root, parsed.problems.isEmpty else {
      guard let problem = parsed.problems.first else { return .success(.null) }
      return .failure(problem)
    }
    return .success(root.jsonValue)
  }
}
