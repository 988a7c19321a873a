import ApiarySupport

/// Reads an XML property list (`<plist><dict><key>…</key><string>…</string></dict></plist>`)
/// into the tree the JSON parser builds, without Foundation: iterative, linear, bounded by
/// ``ManifestLimits``, and strict about what manifests use. `<date>` and `<data>` are reported
/// as values manifests do not use; `<!DOCTYPE>` internal subsets (entity declarations) are
/// refused; only the five XML entities and character references are expanded. Values carry no
/// positions; a syntax error has the line and column where reading stopped.
///
/// ```swift
/// let (root, problems) = XMLPropertyList.parse(bytes, file: "search.plist", limits: .default)
/// ```
struct XMLPropertyList {
  static func parse(_ bytes: UnsafeRawBufferPointer, file: String, limits: ManifestLimits) -> (
    root: ManifestNode?, problems: [ManifestProblem]
  ) {
    var parser = XMLPropertyList(bytes: bytes.bindMemory(to: UInt8.self), file: file)
    parser.limits = limits
    do {
      let root = try parser.parseDocument()
      return (root, parser.tree.problems)
    } catch {
      return (nil, parser.tree.problems + [parser.positioned(error)])
    }
  }

  /// `problem` at the line and column (counted in scalars) where reading stopped, which
  /// values do not carry: a syntax error needs a place in the file.
  private func positioned(_ problem: ManifestProblem) -> ManifestProblem {
    var problem = problem
    var line = 1
    var column = 1
    for byte in bytes[..<min(index, bytes.count)] {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    problem.location.line = line
    problem.location.column = column
    return problem
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  private var limits = ManifestLimits.default
  private var tree: PropertyListTree

  private init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
    self.bytes = bytes
    self.tree = PropertyListTree(file: file)
  }

  private struct Tag {
    var name: Name
    var isClose: Bool
    var isEmpty: Bool
  }

  /// The elements a property list may contain; anything else is refused unnamed.
  private enum Name: String, CaseIterable {
    case plist, dict, array, key, string, integer, real, `true`, `false`, date, data
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func parseDocument() throws(ManifestProblem) -> ManifestNode {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    try skipMisc()
    var tag = try readTag()
    let isWrapped = tag.name == .plist && !tag.isClose
    if isWrapped {
      if tag.isEmpty { throw tree.syntax("expected a value inside <plist>") }
      try skipMisc()
      tag = try readTag()
    }
    while true {
      if let root = try handle(tag) {
        try skipMisc()
        if isWrapped {
          let close = try readTag()
          guard close.name == .plist, close.isClose else {
            throw tree.syntax("expected </plist> after the top-level value")
          }
          try skipMisc()
        }
        guard index == bytes.count else {
          throw tree.syntax("expected end of file after the top-level value")
        }
        return root
      }
      try skipMisc()
      tag = try readTag()
    }
  }

  /// Handles one tag; returns the root once the top-level value is complete.
  private mutating func handle(_ tag: Tag) throws(ManifestProblem) -> ManifestNode? {
    if tag.isClose {
      guard tag.name == .dict || tag.name == .array, let closed = try tree.close(tag.name == .dict)
      else {
        throw tree.syntax("unexpected closing </\(tag.name.rawValue)>")
      }
      return try tree.attach(closed)
    }
    if tree.expectsKey {
      guard tag.name == .key else { throw tree.syntax("expected <key> or </dict> in <dict>") }
      try tree.setKey(tag.isEmpty ? "" : try text(closing: .key))
      return nil
    }
    try tree.count(limits)
    let value: ManifestNode.Value
    switch tag.name {
    case .dict, .array:
      guard tag.isEmpty else {
        try tree.open(isDictionary: tag.name == .dict, limits: limits)
        return nil
      }
      value = tag.name == .dict ? .object([]) : .array([])
    case .string:
      value = .string(tag.isEmpty ? "" : try text(closing: .string))
    case .integer:
      let text = tag.isEmpty ? "" : try text(closing: .integer)
      guard let number = PropertyListTree.integer(text) else {
        throw tree.syntax("expected an integer in <integer>")
      }
      value = .int(number)
    case .real:
      let text = tag.isEmpty ? "" : try text(closing: .real)
      guard let number = Double(text.trimmingXMLSpace()), number.isFinite else {
        throw tree.syntax("expected a finite number in <real>")
      }
      value = .double(number)
    case .true, .false:
      if !tag.isEmpty, try !text(closing: tag.name).isEmpty {
        throw tree.syntax("expected <\(tag.name.rawValue)/> to be empty")
      }
      value = .bool(tag.name == .true)
    case .date, .data:
      if !tag.isEmpty { _ = try text(closing: tag.name) }
      tree.refuse(tag.name.rawValue)
      value = .null
    case .key:
      throw tree.syntax("unexpected <key> outside a <dict>")
    case .plist:
      throw tree.syntax("unexpected <plist> inside a property list")
    }
    return try tree.attach(ManifestNode(value: value, line: 0, column: 0))
  }

  // MARK: Markup

  /// Skips white space, comments, processing instructions and a `<!DOCTYPE>` without an
  /// internal subset.
  private mutating func skipMisc() throws(ManifestProblem) {
    while let byte = current {
      if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        index += 1
      } else if starts(with: "<!--") {
        try skip(past: "-->", what: "comment")
      } else if starts(with: "<?") {
        try skip(past: "?>", what: "processing instruction")
      } else if starts(with: "<!DOCTYPE") {
        let end = try position(of: ">", what: "<!DOCTYPE")
        if bytes[index..<end].contains(UInt8(ascii: "[")) {
          throw tree.syntax("<!DOCTYPE> with declarations is not supported in manifests")
        }
        index = end + 1
      } else {
        return
      }
    }
  }

  private mutating func readTag() throws(ManifestProblem) -> Tag {
    guard current == UInt8(ascii: "<") else { throw tree.syntax("expected an element") }
    index += 1
    let isClose = current == UInt8(ascii: "/")
    if isClose { index += 1 }
    let start = index
    while let byte = current, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) {
      index += 1
    }
    let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard let name = Name(rawValue: word) else {
      throw tree.syntax("expected a property-list element (\(Self.names))")
    }
    // Attributes (only <plist version="1.0"> has any) are skipped, quoted values included.
    var quote: UInt8?
    while let byte = current {
      index += 1
      if let open = quote {
        if byte == open { quote = nil }
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        quote = byte
      } else if byte == UInt8(ascii: ">") {
        let isEmpty = index >= 2 && bytes[index - 2] == UInt8(ascii: "/")
        if isClose, isEmpty { throw tree.syntax("malformed closing tag") }
        return Tag(name: name, isClose: isClose, isEmpty: isEmpty)
      } else if name != .plist, !isClose, byte != UInt8(ascii: "/"), byte > 0x20 {
        throw tree.syntax("unexpected attribute on <\(name.rawValue)>")
      }
    }
    throw tree.syntax("expected '>' to end the tag")
  }

  private static let names = Name.allCases.map { "<\($0.rawValue)>" }.joined(separator: ", ")

  /// The text content up to `</name>`, with entities, character references and CDATA sections
  /// expanded and comments left out.
  private mutating func text(closing name: Name) throws(ManifestProblem) -> String {
    var utf8: [UInt8] = []
    while true {
      guard let byte = current else { throw tree.syntax("expected </\(name.rawValue)>") }
      if byte == UInt8(ascii: "&") {
        try entity(into: &utf8)
      } else if byte != UInt8(ascii: "<") {
        utf8.append(byte)
        index += 1
      } else if starts(with: "<![CDATA[") {
        index += 9
        let end = try position(of: "]]>", what: "CDATA section")
        utf8 += bytes[index..<end]
        index = end + 3
      } else if starts(with: "<!--") {
        try skip(past: "-->", what: "comment")
      } else {
        let tag = try readTag()
        guard tag.name == name, tag.isClose else {
          throw tree.syntax("expected text and </\(name.rawValue)> in <\(name.rawValue)>")
        }
        guard let text = String(validating: utf8, as: UTF8.self) else {
          throw tree.syntax("invalid UTF-8 in <\(name.rawValue)>")
        }
        return text
      }
    }
  }

  private mutating func entity(into utf8: inout [UInt8]) throws(ManifestProblem) {
    let end = try position(of: ";", what: "entity", within: 12 + leadingZerosOfReference())
    let body = Array(bytes[(index + 1)..<end])
    index = end + 1
    let named: [String: UInt8] = ["amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27]
    let word = String(decoding: body, as: UTF8.self)
    if let byte = named[word] {
      utf8.append(byte)
      return
    }
    var scalar: UInt32?
    if word.hasPrefix("#x") {
      scalar = UInt32(word.dropFirst(2), radix: 16)
    } else if word.hasPrefix("#") {
      scalar = UInt32(word.dropFirst(), radix: 10)
    }
    guard let value = scalar else {
      throw tree.syntax("expected &amp; &lt; &gt; &quot; &apos; or a character reference")
    }
    guard value != 0, let unicode = Unicode.Scalar(value) else {
      let code = String(value, radix: 16, uppercase: true)
      let named =
        value == 0
        ? "U+0000 (NUL), which XML does not allow in text"
        : value > 0x10FFFF
          ? "no character (the last is U+10FFFF)" : "U+\(code), a surrogate, which is no character"
      throw tree.syntax("character reference &#\(value); names \(named)")
    }
    UTF8.encode(unicode) { utf8.append($0) }
  }

  /// How many `0`s start the digits of the character reference at the index (`&#00065;`,
  /// `&#x0041;`); they do not count against its length.
  private func leadingZerosOfReference() -> Int {
    var digits = index + 1
    guard digits < bytes.count, bytes[digits] == UInt8(ascii: "#") else { return 0 }
    digits += 1
    if digits < bytes.count, bytes[digits] == UInt8(ascii: "x") { digits += 1 }
    var end = digits
    while end < bytes.count, bytes[end] == UInt8(ascii: "0") { end += 1 }
    return end - digits
  }

  // MARK: Bytes

  private func starts(with text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    return (0..<count).allSatisfy { bytes[index + $0] == text.utf8Start[$0] }
  }

  /// Where `text` next occurs at or after the index (searching at most `within` bytes).
  private func position(of text: StaticString, what: String, within: Int = .max)
    throws(ManifestProblem) -> Int
  {
    let count = text.utf8CodeUnitCount
    let first = text.utf8Start[0]
    var position = index
    let limit = within == .max ? bytes.count : min(bytes.count, index + within)
    while position + count <= limit {
      if bytes[position] == first,
        (1..<count).allSatisfy({ bytes[position + $0] == text.utf8Start[$0] })
      {
        return position
      }
      position += 1
    }
    throw tree.syntax("unterminated \(what)")
  }

  private mutating func skip(past text: StaticString, what: String) throws(ManifestProblem) {
    index += 2
    index = try position(of: text, what: what) + text.utf8CodeUnitCount
  }
}

extension String {
  /// Without leading and trailing XML white space.
  func trimmingXMLSpace() -> Substring {
    let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    var scalars = Substring(self).unicodeScalars
    while let first = scalars.first, isSpace(first) { scalars.removeFirst() }
    while let last = scalars.last, isSpace(last) { scalars.removeLast() }
    return Substring(scalars)
  }
}
