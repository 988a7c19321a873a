import ApiaryManifest
import ApiarySupport
import Testing

@testable import ApiaryProcess

@Suite struct WireJSONTests {
  private func parse(_ text: String) throws -> JSONValue {
    try WireJSON.parse(Array(text.utf8))
  }

  @Test func readsEveryKindOfValue() throws {
    let text = #" {"a": [1, -2.5, 1e3, true, false, null], "b": {"c": "d"}, "e": [], "f": {}} "#
    #expect(
      try parse(text)
        == .object([
          "a": [1, -2.5, 1000.0, true, false, .null], "b": ["c": "d"], "e": [], "f": [:],
        ]))
    #expect(try parse("9223372036854775807") == .int(Int.max))
    #expect(try parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
  }

  @Test func resolvesEscapesAndKeepsUnicode() throws {
    #expect(
      try parse(#""é \"q\" \\ \/ \n\t \u00e9 \ud83d\ude00""#) == .string("é \"q\" \\ / \n\t é 😀"))
  }

  @Test func refusesWhatIsNotJSON() {
    for text in [
      "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"a", "\"\u{01}\"", "1 2",
      #""\ud800""#, #""\x""#, "{1:2}",
    ] {
      #expect(throws: WireJSON.Problem.self, "\(text)") { try parse(text) }
    }
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    #expect(throws: WireJSON.Problem.self) { try parse(deep) }
  }

  /// The wire's encoder writes the types calls send (the `Sendable` collections the runtime
  /// passes, JSON values, encodables, nil) as JSON with sorted keys.
  @Test func encoderWritesWhatCallsSend() throws {
    struct Point: Encodable { let x: Int }
    let values: [String: any Sendable] = [
      "target": "notes", "n": 3, "ok": true, "ratio": 0.5, "none": String?.none,
      "list": [1, "two", [3.5]] as [any Sendable], "json": JSONValue.object(["k": [1, 2]]),
      "nested": ["z": 1, "a": ["b": "c"]] as [String: any Sendable], "point": Point(x: 1),
      "quote": "say \"hi\"\n",
    ]
    #expect(
      try WireValue.encode(values, what: "test")
        == #"{"json":{"k":[1,2]},"list":[1,"two",[3.5]],"n":3,"nested":{"a":{"b":"c"},"z":1},"#
        + #""none":null,"ok":true,"point":{"x":1},"quote":"say \"hi\"\n","ratio":0.5,"#
        + #""target":"notes"}"#)
    #expect(throws: NotRepresentable.self) {
      try WireValue.encode(["bad": Double.nan] as [String: any Sendable], what: "test")
    }
  }
}
