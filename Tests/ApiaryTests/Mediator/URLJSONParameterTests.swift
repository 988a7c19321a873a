import Foundation
import Testing

@testable import Apiary

/// A URL's `object` parameter is held to a manifest's JSON rules, and its strings to a string
/// parameter's: what either refuses is refused with the parameter's name, not taken silently.
@Suite struct URLJSONParameterTests {
  /// The message for `json` given as the `object` parameter of `calc/keys`, or nil when the
  /// call succeeds.
  private func refusal(_ json: String) throws -> String? {
    let mediator = try Fixtures.mediator()
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    let query = json.addingPercentEncoding(withAllowedCharacters: allowed) ?? json
    return mediatorError { try mediator.open("app://calc/keys?object=" + query) }?.description
  }

  /// `{"a":1,"a":2}` was taken as `{"a":2}`; a manifest refuses the repeated key.
  @Test func aRepeatedKeyIsRefused() throws {
    #expect(try refusal(#"{"a":1}"#) == nil)
    let message = try #require(try refusal(#"{"a":1,"a":2}"#))
    #expect(
      message.hasPrefix("calc/keys: parameter 'object' expected a JSON object (duplicate key 'a'"))
    #expect(message.contains("only one may be given"), "\(message)")
    let nested = try #require(try refusal(#"{"b":{"x":1,"x":2}}"#))
    #expect(nested.contains("duplicate key 'x'"), "\(nested)")
  }

  /// `{"a":"\u0000"}` was taken, while `%00` in a string parameter is refused.
  @Test func aControlCharacterInAStringIsRefusedAsInAStringParameter() throws {
    for json in [#"{"a":"x\u0000"}"#, #"{"a":["\u001b"]}"#, #"{"\u0000":1}"#] {
      let message = try #require(try refusal(json), "\(json)")
      #expect(
        message.hasPrefix(
          "calc/keys: parameter 'object' expected a JSON object (a string holds the control character U+"
        ), "\(message)")
    }
    #expect(
      try refusal(#"{"a":"x\u0000"}"#)?.contains(
        "(a string holds the control character U+0000, as a string parameter may not; only tab, "
          + "line feed and carriage return are allowed)") == true)
    #expect(try refusal(#"{"a":"tab\tline\ncr\r"}"#) == nil)
  }
}
