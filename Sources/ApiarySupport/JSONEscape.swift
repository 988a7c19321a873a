/// The one-character escapes of a JSON string (RFC 8259, section 7), for both readers of JSON
/// text: the manifest parser and the wire's.
///
/// ```swift
/// let newline = JSONEscape.byte(after: UInt8(ascii: "n"))  // 0x0A
/// let unicode = JSONEscape.byte(after: UInt8(ascii: "u"))  // nil: four hex digits follow
/// ```
package enum JSONEscape {
  /// The byte that `\` followed by `escape` stands for: `"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`.
  /// Nil for `u` (a `\uXXXX` escape, which the reader decodes) and for anything else.
  @inlinable
  package static func byte(after escape: UInt8) -> UInt8? {
    switch escape {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape
    case UInt8(ascii: "b"): 0x08
    case UInt8(ascii: "f"): 0x0C
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "r"): 0x0D
    case UInt8(ascii: "t"): 0x09
    default: nil
    }
  }
}
