import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryMediator

@Suite struct RemoteURLTests {
  private func parse(_ url: String) throws -> RemoteURL {
    try RemoteURL.parse(url, scheme: "app")
  }

  private func malformed(_ url: String) -> String? {
    if case .malformedURL(_, let reason)? = mediatorError({ try parse(url) })?.details {
      return reason
    }
    return nil
  }

  @Test func parsesTargetActionAndQuery() throws {
    let url = try parse("app://notes/create?title=Hello&pinned=true#ignored")
    #expect(url.target == "notes")
    #expect(url.action == "create")
    #expect(url.query.map(\.key) == ["title", "pinned"])
    #expect(url.query.map(\.value) == ["Hello", "true"])
  }

  @Test func decodesPercentEncodingAndPlus() throws {
    let url = try parse("app://no%74es/cre%61te?t%69tle=Hello%20w%C3%B6rld+again&x=a%2Bb%26c%3Dd")
    #expect(url.target == "notes")
    #expect(url.action == "create")
    #expect(url.query.first?.key == "title")
    #expect(url.query.first?.value == "Hello wörld again")
    #expect(url.query.last?.value == "a+b&c=d")
  }

  @Test func keepsRepeatedKeysAndEmptyValues() throws {
    let url = try parse("app://t/a?tag=x&tag=y&empty=&bare&&last=1=2")
    #expect(url.query.map(\.key) == ["tag", "tag", "empty", "bare", "last"])
    #expect(url.query.map(\.value) == ["x", "y", "", "", "1=2"])
  }

  @Test func schemeIsCaseInsensitiveAndOtherSchemesAreRefused() throws {
    #expect(try parse("APP://t/a").target == "t")
    let error = mediatorError { try parse("evil://t/a") }
    #expect(error == .wrongScheme(url: "evil://t/a", expected: "app", found: "evil"))
    #expect(error?.description.contains("scheme 'evil' is not the application's 'app'") == true)
    #expect(mediatorError { try parse("ap://t/a") } != nil)
    #expect(mediatorError { try parse("appp://t/a") } != nil)
  }

  @Test func malformedURLsSayWhy() {
    #expect(malformed("") == "missing scheme")
    #expect(malformed("notes/create") == "missing scheme")
    #expect(malformed(":/x") == "missing scheme")
    #expect(malformed("1pp://t/a") == "invalid scheme")
    #expect(malformed("app:t/a") == "expected '://' after the scheme")
    #expect(malformed("app://") == "missing target")
    #expect(malformed("app:///a") == "missing target")
    #expect(malformed("app://t") == "missing action")
    #expect(malformed("app://t?x=1") == "missing action")
    #expect(malformed("app://t/") == "missing action")
    #expect(malformed("app://t/a/b") == "expected one path segment (the action) after the target")
    #expect(malformed("app://t/a?=1") == "empty parameter name at offset 10")
    let badly = "is not valid percent-encoded UTF-8 or encodes a control character"
    #expect(malformed("app://t/a?x=%4") == "parameter at offset 10 \(badly)")
    #expect(malformed("app://t/a?x=%zz")?.contains("percent-encoded") == true)
    #expect(malformed("app://t/a?x=%FF")?.contains("percent-encoded") == true)
    #expect(malformed("app://t/a?x=%00") == "parameter at offset 10 \(badly)")
    #expect(malformed("app://t%/a") == "target name \(badly)")
    #expect(malformed("app://t/a%C3") == "action name \(badly)")
    #expect(malformed("app://t/a%07") == "action name \(badly)")
    #expect(
      malformed("app://t/a b") == "raw space or control character at offset 9; percent-encode it")
    #expect(malformed("app://t/a?x=\n")?.hasPrefix("raw space or control character") == true)
    let long = "app://t/a?x=" + String(repeating: "a", count: RemoteURL.maximumLength)
    #expect(malformed(long)?.hasPrefix("longer than 8192 bytes") == true)
    let many =
      "app://t/a?" + (0...RemoteURL.maximumParameters).map { "k\($0)=1" }.joined(separator: "&")
    #expect(malformed(many) == "more than 64 parameters")
  }

  @Test func decodedLineBreaksAndTabsAreAllowed() throws {
    #expect(try parse("app://t/a?x=1%0A2%093").query.first?.value == "1\n2\t3")
  }

  @Test func errorMessagesClipHostileInput() {
    let long = "app://t/a?x=%" + String(repeating: "z", count: 5000)
    let text = mediatorError { try parse(long) }?.description ?? ""
    #expect(text.count < 400)
  }
}

@Suite struct OpenTests {
  @Test func convertsQueryTextToDeclaredKinds() throws {
    let mediator = try Fixtures.mediator()
    #expect(try mediator.open("app://calc/add?a=2&b=-3") as? Int == -1)
    #expect(try mediator.open("app://calc/add?a=2") as? Int == 12)
    #expect(try mediator.open("app://calc/scale?x=1.5&factor=4") as? Double == 6)
    #expect(try mediator.open("app://calc/greet?name=Ada&loud=yes") as? String == "Hello, Ada!")
    #expect(try mediator.open("app://calc/greet?name=Ada&loud=0&greeting=") as? String == ", Ada")
    #expect(try mediator.open("app://calc/count?items=a&items=b&items=") as? Int == 3)
    #expect(try mediator.open("app://calc/echo?value=x") as? String == "x")
    #expect(try mediator.open("app://calc/echo?value=x&value=y") as? [String] == ["x", "y"])
    let keys = try mediator.open("app://calc/keys?object=%7B%22b%22%3A1%2C%22a%22%3Anull%7D")
    #expect(keys as? [String] == ["a", "b"])
  }

  @Test func asyncOpenReachesAsyncActions() async throws {
    let mediator = try Fixtures.mediator()
    #expect(try await mediator.open("app://calc/slow?a=4") as? Int == 4)
    #expect(try await mediator.open("app://calc/add?a=4") as? Int == 14)
  }

  @Test func refusesLocalOnlyActions() {
    let mediator = try? Fixtures.mediator()
    let error = mediatorError { try mediator?.open("app://calc/id") }
    #expect(error == .notRemote(target: "calc", action: "id"))
    #expect(error?.description.contains("local-only") == true)
  }

  @Test func refusesParametersThatDoNotFitTheDeclaration() throws {
    let mediator = try Fixtures.mediator()
    func error(_ url: String) -> MediatorError? { mediatorError { try mediator.open(url) } }
    #expect(
      error("app://calc/add?b=1")
        == .missingParameter(target: "calc", action: "add", key: "a", expected: "int"))
    #expect(
      error("app://calc/add?a=x")
        == .invalidParameterValue(
          target: "calc", action: "add", key: "a", expected: "int", found: "x"))
    #expect(
      error("app://calc/add?a=")
        == .invalidParameterValue(
          target: "calc", action: "add", key: "a", expected: "int", found: ""))
    #expect(
      error("app://calc/add?a=99999999999999999999")
        == .invalidParameterValue(
          target: "calc", action: "add", key: "a", expected: "int", found: "99999999999999999999"))
    #expect(
      error("app://calc/scale?x=nan")
        == .invalidParameterValue(
          target: "calc", action: "scale", key: "x", expected: "double", found: "nan"))
    #expect(
      error("app://calc/greet?name=a&loud=maybe")
        == .invalidParameterValue(
          target: "calc", action: "greet", key: "loud", expected: "bool", found: "maybe"))
    #expect(
      error("app://calc/keys?object=%5B1%5D")
        == .invalidParameterValue(
          target: "calc", action: "keys", key: "object", expected: "a JSON object", found: "[1]"))
    #expect(
      error("app://calc/add?a=1&a=2")
        == .repeatedParameter(target: "calc", action: "add", key: "a"))
    #expect(
      error("app://calc/add?a=1&c=2")
        == .unexpectedParameter(target: "calc", action: "add", key: "c"))
    #expect(
      error("evil://calc/add?a=1")
        == .wrongScheme(url: "evil://calc/add?a=1", expected: "app", found: "evil"))
  }

  @Test func syncOpenOfAnAsyncActionIsATypedError() throws {
    let mediator = try Fixtures.mediator()
    let error = mediatorError { try mediator.open("app://calc/slow?a=1") }
    #expect(error == .asyncActionInSyncCall(target: "calc", action: "slow"))
  }
}
