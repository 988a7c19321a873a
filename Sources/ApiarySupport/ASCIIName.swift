/// The one identifier check: whether `text` is an ASCII letter (or `_` when `underscoreFirst`)
/// followed by ASCII letters, digits and the characters in `allowed`.
///
/// ```swift
/// isASCIIName("note-store", also: "_-")                  // manifest names
/// isASCIIName("_Notes", underscoreFirst: true, also: "_")  // Swift identifiers
/// isASCIIName("x-notebook+v1", also: "+-.")              // URL schemes
/// ```
@inlinable package func isASCIIName(
  _ text: some StringProtocol, underscoreFirst: Bool = false, also allowed: String
) -> Bool {
  func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
  }
  func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
  guard let first = text.utf8.first,
    isLetter(first) || (underscoreFirst && first == UInt8(ascii: "_"))
  else { return false }
  return text.utf8.allSatisfy { isLetter($0) || isDigit($0) || allowed.utf8.contains($0) }
}
