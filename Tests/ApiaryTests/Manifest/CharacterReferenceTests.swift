import Foundation
import Testing

@testable import Apiary
@testable import ApiaryManifest

/// A plist's character reference to a character XML does not allow is refused as what it is.
@Suite struct CharacterReferenceTests {
  /// `<string>a&#0;b</string>` said `expected &amp; &lt; &gt; &quot; &apos; or a character
  /// reference`, though it is one: it names NUL.
  @Test func aReferenceToNULSaysSo() {
    func problems(_ text: String) -> [String] {
      ManifestLoader.decodeModules(
        Data(plist("<dict><key>a</key><string>\(text)</string></dict>").utf8), file: "m.plist"
      ).problems.map(\.message)
    }
    let nul =
      "not a valid property list: character reference &#0; names U+0000 (NUL), which XML "
      + "does not allow in text"
    #expect(problems("a&#0;b") == [nul])
    #expect(problems("a&#x0000;b") == [nul])
    #expect(
      problems("&#xD800;") == [
        "not a valid property list: character reference &#55296; names U+D800, a surrogate, which "
          + "is no character"
      ])
    #expect(
      problems("&#x110000;") == [
        "not a valid property list: character reference &#1114112; names no character (the last "
          + "is U+10FFFF)"
      ])
    #expect(
      problems("&nbsp;") == [
        "not a valid property list: expected &amp; &lt; &gt; &quot; &apos; or a character reference"
      ])
  }
}
