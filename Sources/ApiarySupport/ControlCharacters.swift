/// Makes text from input or from modules safe to print as part of one line: control characters
/// become visible escapes, so the text cannot start a line of its own, move the cursor or rewrite
/// what a terminal shows.
///
/// Escaped are the C0 controls (`\n`, `\r` and `\t` by name), DEL, the C1 controls (U+0080–U+009F,
/// with NEL) and the Unicode line and paragraph separators. The escapes are JSON's, so a JSON
/// result stays valid JSON; backslashes are left alone for the same reason.
///
/// ```swift
/// ControlCharacters.escaped("id=1\n[info] fake")  // #"id=1\n[info] fake"#
/// ControlCharacters.escaped("\u{1B}[2J")          // #"\u001B[2J"#
/// ```
public enum ControlCharacters {
  public static func escaped(_ text: String) -> String {
    // Every escaped scalar starts with a byte below 0x20, 0x7F, 0xC2 (C1) or 0xE2 (U+2028/9).
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }),
      text.unicodeScalars.contains(where: needsEscape)
    else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where needsEscape(scalar):
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
    default: false
    }
  }
}
