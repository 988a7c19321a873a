import Foundation
import Testing

@testable import Apiary
@testable import ApiaryManifest

/// An integer written in JSON must fit 64 bits: one beyond is refused as out of range, naming
/// the range, instead of becoming a `Double` that drops its last digits.
@Suite struct IntegerRangeTests {
  /// `"priority": 9223372036854775808` said `expected integer, found number
  /// 9.223372036854776e+18`: it is an integer, one past the range.
  @Test func anIntegerPastSixtyFourBitsIsOutOfRange() {
    let set = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "P.A", "priority": 9223372036854775808}]}"#
    )
    #expect(
      set.problems.map(\.description) == [
        "modules/notes.json:1:75 modules[0].priority: integer 9223372036854775808 is out of range: "
          + "integers are from -9223372036854775808 to 9223372036854775807 (where an approximate "
          + "value will do, write it with an exponent, such as 1.5e30)"
      ])
    // The edges fit; a free-form config value past them is refused too, not rounded.
    let edges = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "P.A", "priority": -9223372036854775808, "config": {"m": 9223372036854775807}}]}"#
    )
    #expect(edges.problems.isEmpty)
    #expect(edges.modules.first?.config["m"] == .int(.max))
    let config = decodeModules(
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "P.A", "config": {"big": -123456789012345678901234567890}}]}"#
    )
    #expect(
      config.problems.map(\.message).first?.hasPrefix(
        "integer -123456789012345678901234567890 is out of range") == true,
      "\(config.problems)")
    #expect(
      decodeModules(
        #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "P.A", "config": {"big": 1.5e30}}]}"#
      ).problems.isEmpty)
  }

  /// `o={"a":123456789012345678901234567890}` gave `{"a":1.2345678901234568e+29}`.
  @Test func aURLObjectWithAnIntegerPastSixtyFourBitsIsRefused() throws {
    let mediator = try Fixtures.mediator()
    let error = mediatorError {
      try mediator.open("app://calc/keys?object=%7B%22a%22%3A123456789012345678901234567890%7D")
    }
    #expect(
      error?.description.hasPrefix(
        "calc/keys: parameter 'object' expected a JSON object (integer "
          + "123456789012345678901234567890 is out of range: integers are from "
          + "-9223372036854775808 to 9223372036854775807") == true, "\(String(describing: error))")
  }
}
