import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryMediator
@testable import ApiaryTooling

@Suite struct ResultRendererTests {
  struct Note: Codable, Sendable {
    var title: String
    var tags: [String]
  }

  struct Opaque: Sendable, CustomStringConvertible {
    var description: String { "opaque thing" }
  }

  @Test func rendersJSONRepresentableValues() throws {
    #expect(try ResultRenderer.render(nil) == "null")
    #expect(try ResultRenderer.render(()) == "null")
    #expect(try ResultRenderer.render("a \"quoted\"\nline\u{1}") == #""a \"quoted\"\nline\u0001""#)
    #expect(try ResultRenderer.render(42) == "42")
    #expect(try ResultRenderer.render(UInt8(7)) == "7")
    #expect(try ResultRenderer.render(1.5) == "1.5")
    #expect(try ResultRenderer.render(true) == "true")
    let nested: [String: any Sendable] = [
      "b": [1, "two", nil as Int?] as [any Sendable], "a": ["x": false] as [String: any Sendable],
    ]
    #expect(try ResultRenderer.render(nested) == #"{"a":{"x":false},"b":[1,"two",null]}"#)
    #expect(
      try ResultRenderer.render(JSONValue.object(["k": [1, 2.5, .null]])) == #"{"k":[1,2.5,null]}"#)
    #expect(
      try ResultRenderer.render(Note(title: "Hi", tags: ["a"])) == #"{"tags":["a"],"title":"Hi"}"#)
  }

  @Test func fallsBackToADescription() throws {
    #expect(ResultRenderer.json(Opaque()) == nil)
    #expect(try ResultRenderer.render(Opaque()) == "opaque thing")
    #expect(ResultRenderer.json(Double.nan) == nil)
    #expect(ResultRenderer.json([Opaque()]) == nil)
  }

  @Test func rendersWhatARemoteCallReturns() throws {
    let mediator = try Fixtures.mediator()
    let result = try mediator.open("app://calc/count?items=a&items=b")
    #expect(try ResultRenderer.render(result) == "2")
    let echoed = try mediator.open("app://calc/echo?value=a&value=b%20c")
    #expect(try ResultRenderer.render(echoed) == #"["a","b c"]"#)
  }
}
