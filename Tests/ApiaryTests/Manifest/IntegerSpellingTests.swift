import Foundation
import Testing

@testable import Apiary
@testable import ApiaryManifest

/// An integer field takes an integer as JSON writes one (`3`) or a plist's `<integer>`: a whole
/// number written `3.0` is a number, refused there with how to write it, by the decoder as the
/// token path already declined it.
@Suite struct IntegerSpellingTests {
  /// `"schemaVersion": 1.0` and `"priority": 3.0` were accepted.
  @Test func aWholeNumberWithAFractionIsNotAnInteger() {
    let version = decodeModules(#"{"schemaVersion": 1.0, "modules": []}"#)
    #expect(
      version.problems.map(\.description) == [
        "modules/notes.json:1:19 schemaVersion: expected integer, found number 1.0 (write it as 1: "
          + "an integer has no fraction or exponent)"
      ])
    let fields = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "P.A", "priority": 3.0, "services": [{"protocol": "P", "implementation": "I", "rank": 2e0}], "restart": {"policy": "never", "maxRestarts": 1.0}}]}"#
    )
    #expect(
      fields.problems.map(\.message) == [
        "expected integer, found number 3.0 (write it as 3: an integer has no fraction or exponent)",
        "expected integer, found number 2.0 (write it as 2: an integer has no fraction or exponent)",
        "expected integer, found number 1.0 (write it as 1: an integer has no fraction or exponent)",
      ])
    let real = ManifestLoader.decodeModules(
      Data(
        plist(
          "<dict><key>schemaVersion</key><integer>1</integer><key>modules</key><array><dict>"
            + "<key>name</key><string>a</string><key>type</key><string>P.A</string>"
            + "<key>priority</key><real>3</real></dict></array></dict>"
        ).utf8), file: "m.plist")
    #expect(
      real.problems.map(\.message).first?.hasPrefix("expected integer, found number 3.0") == true)
  }

  /// An `int` parameter's default follows the same rule.
  @Test func anIntParametersDefaultIsAnInteger() {
    #expect(ManifestValidator.matches(.int(3), .int))
    #expect(!ManifestValidator.matches(.double(3), .int))
    #expect(ManifestValidator.matches(.double(3), .double))
  }
}
