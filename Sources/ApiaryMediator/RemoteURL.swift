/// A remote call's URL, `scheme://target/action?key=value&key=value#fragment`, parsed byte by
/// byte: percent-encoding (`%2F`) and `+` (a space) are decoded in names and values, repeated
/// keys are kept in order, `key` and `key=` both give an empty value, empty `&&` segments are
/// skipped and the fragment is ignored. Anything else is a typed error, never a crash.
struct RemoteURL: Sendable {
  /// Longer URLs are refused before parsing.
  static let maximumLength = 8192
  /// URLs with more query parameters are refused.
  static let maximumParameters = 64

  let target: String
  let action: String
  let query: [QueryItem]

  /// One `key=value` of the query, decoded.
  struct QueryItem: Sendable, Hashable {
    let key: String
    let value: String
  }

  /// Parses `text`, refusing it unless its scheme is `scheme` (compared case-insensitively).
  static func parse(_ text: String, scheme: String) throws(MediatorError) -> RemoteURL {
    guard text.utf8.count <= maximumLength else {
      throw .malformedURL(
        url: text, reason: "longer than \(maximumLength) bytes (\(text.utf8.count))")
    }
    var copy = text
    let parsed = copy.withUTF8 { bytes -> Parsed in
      do throws(MediatorError) {
        return .url(try parse(bytes, text: text, scheme: scheme))
      } catch {
        return .error(error)
      }
    }
    switch parsed {
    case .url(let url): return url
    case .error(let error): throw error
    }
  }

  /// Carries a typed error out of `withUTF8`, whose closure cannot throw typed errors. (A
  /// `Result` would look up its generic metadata on every call.)
  private enum Parsed {
    case url(RemoteURL)
    case error(MediatorError)
  }

  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, text: String, scheme: String)
    throws(MediatorError) -> RemoteURL
  {
    func fail(_ reason: String) -> MediatorError { .malformedURL(url: text, reason: reason) }
    let end = bytes.count
    for index in 0..<end where bytes[index] <= 0x20 || bytes[index] == 0x7F {
      throw fail("raw space or control character at offset \(index); percent-encode it")
    }
    // Scheme.
    var index = 0
    while index < end, bytes[index] != UInt8(ascii: ":") { index += 1 }
    guard index < end, index > 0 else { throw fail("missing scheme") }
    let schemeBytes = UnsafeBufferPointer(rebasing: bytes[0..<index])
    guard isSchemeStart(schemeBytes[0]), schemeBytes.allSatisfy(isSchemeByte) else {
      throw fail("invalid scheme")
    }
    guard matches(schemeBytes, scheme) else {
      throw .wrongScheme(
        url: text, expected: scheme, found: String(decoding: schemeBytes, as: UTF8.self))
    }
    guard index + 2 < end, bytes[index + 1] == UInt8(ascii: "/"),
      bytes[index + 2] == UInt8(ascii: "/")
    else { throw fail("expected '://' after the scheme") }
    index += 3
    // Target (the host).
    let targetStart = index
    while index < end, !isDelimiter(bytes[index]) { index += 1 }
    guard index > targetStart else { throw fail("missing target") }
    guard let target = decode(bytes, targetStart..<index) else {
      throw fail("target name is not valid percent-encoded UTF-8 or encodes a control character")
    }
    // Action (one path segment).
    guard index < end, bytes[index] == UInt8(ascii: "/") else { throw fail("missing action") }
    index += 1
    let actionStart = index
    while index < end, !isDelimiter(bytes[index]) { index += 1 }
    guard index > actionStart else { throw fail("missing action") }
    if index < end, bytes[index] == UInt8(ascii: "/") {
      throw fail("expected one path segment (the action) after the target")
    }
    guard let action = decode(bytes, actionStart..<index) else {
      throw fail("action name is not valid percent-encoded UTF-8 or encodes a control character")
    }
    // Query.
    var query: [QueryItem] = []
    query.reserveCapacity(4)
    if index < end, bytes[index] == UInt8(ascii: "?") {
      index += 1
      while index < end, bytes[index] != UInt8(ascii: "#") {
        let start = index
        var equals: Int?
        while index < end, bytes[index] != UInt8(ascii: "&"), bytes[index] != UInt8(ascii: "#") {
          if equals == nil, bytes[index] == UInt8(ascii: "=") { equals = index }
          index += 1
        }
        if index > start {
          let keyEnd = equals ?? index
          guard keyEnd > start else { throw fail("empty parameter name at offset \(start)") }
          guard query.count < maximumParameters else {
            throw fail("more than \(maximumParameters) parameters")
          }
          guard let key = decode(bytes, start..<keyEnd),
            let value = decode(bytes, (equals.map { $0 + 1 } ?? index)..<index)
          else {
            throw fail(
              "parameter at offset \(start) is not valid percent-encoded UTF-8 or encodes a "
                + "control character")
          }
          query.append(QueryItem(key: key, value: value))
        }
        if index < end, bytes[index] == UInt8(ascii: "&") { index += 1 }
      }
    } else if index < end, bytes[index] != UInt8(ascii: "#") {
      throw fail("unexpected character after the action")
    }
    return RemoteURL(target: target, action: action, query: query)
  }

  private static func isDelimiter(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
  }

  private static func isSchemeStart(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
  }

  private static func isSchemeByte(_ byte: UInt8) -> Bool {
    isSchemeStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
      || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
  }

  /// ASCII case-insensitive comparison of the URL's scheme with the application's.
  private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ scheme: String) -> Bool {
    var scheme = scheme
    return scheme.withUTF8 { expected in
      guard bytes.count == expected.count else { return false }
      for index in 0..<bytes.count {
        let lhs = bytes[index]
        let rhs = expected[index]
        guard lhs == rhs || (isSchemeStart(lhs) && lhs | 0x20 == rhs | 0x20) else { return false }
      }
      return true
    }
  }

  /// Decodes `%XX` and `+` in `range`; nil for a bad escape, invalid UTF-8 or a decoded control
  /// character other than tab, line feed and carriage return.
  private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
    let slice = UnsafeBufferPointer(rebasing: bytes[range])
    guard slice.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
      return String(decoding: slice, as: UTF8.self)
    }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: slice.count) { buffer in
      var count = 0
      var index = 0
      while index < slice.count {
        var byte = slice[index]
        if byte == UInt8(ascii: "+") {
          byte = UInt8(ascii: " ")
        } else if byte == UInt8(ascii: "%") {
          guard index + 2 < slice.count, let high = hexValue(slice[index + 1]),
            let low = hexValue(slice[index + 2])
          else { return nil }
          byte = high << 4 | low
          index += 2
          if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F {
            return nil
          }
        }
        buffer[count] = byte
        count += 1
        index += 1
      }
      return String(validating: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
    }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
