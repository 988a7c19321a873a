import Testing

@testable import ApiarySupport

@Suite struct ControlCharactersTests {
  @Test func escapesEveryControlAndLineSeparatorAndNothingElse() {
    #expect(ControlCharacters.escaped("plain ü → 🐝 \\ \"") == "plain ü → 🐝 \\ \"")
    #expect(ControlCharacters.escaped("a\nb\rc\td") == #"a\nb\rc\td"#)
    #expect(ControlCharacters.escaped("\u{0}\u{1B}[2J\u{7F}") == #"\u0000\u001B[2J\u007F"#)
    #expect(ControlCharacters.escaped("\u{85}\u{9F}\u{A0}") == "\\u0085\\u009F\u{A0}")
    #expect(ControlCharacters.escaped("x\u{2028}y\u{2029}") == #"x\u2028y\u2029"#)
    #expect(ControlCharacters.escaped("\r\n") == #"\r\n"#)
  }

  @Test func everyScalarBelowU0100IsEscapedExactlyWhenItIsAControl() {
    for value in UInt32(0)..<0x100 {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let escaped = ControlCharacters.escaped(String(scalar))
      let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
      #expect((escaped != String(scalar)) == isControl, "U+\(String(value, radix: 16))")
      let raw = escaped.unicodeScalars.filter {
        $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
      }
      #expect(raw.isEmpty)
    }
  }
}
