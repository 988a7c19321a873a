import ApiaryTooling
import Testing

@testable import Apiary

/// Bounded cost per call: URL JSON parameters are parsed linearly with a depth limit, results
/// are rendered with one, and URLs that name no action are checked without running anything.
@Suite struct CallLimitsTests {
  private func nested(_ depth: Int) -> String {
    String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
  }

  private func encoded(_ text: String) -> String {
    text.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")
      .replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: ":", with: "%3A")
  }

  @Test func nestedObjectParametersAreDepthLimitedWithATypedError() throws {
    let mediator = try Fixtures.mediator()
    // Within the limit: parsed.
    let fine = try mediator.open("app://calc/keys?object=" + encoded(nested(100)))
    #expect(fine as? [String] == ["a"])
    // About 7 KB of nesting, past the limit: refused at once, naming the limit.
    let url = "app://calc/keys?object=" + encoded(String(repeating: "{\"a\":", count: 600))
    #expect(url.utf8.count > 7000)
    let error = mediatorError { try mediator.open(url) }
    guard case .invalidParameterValue(_, _, let key, let expected, _)? = error?.details else {
      Issue.record("expected invalidParameterValue, got \(String(describing: error))")
      return
    }
    #expect(key == "object")
    #expect(expected.contains("nested deeper than 512 levels"))
  }

  @Test func deepResultsAreRefusedWhenRendered() throws {
    var value: any Sendable = 1
    for _ in 0..<2000 { value = [value] }
    #expect(throws: MediatorError.resultTooDeep(limit: ResultRenderer.maximumDepth)) {
      try ResultRenderer.render(value)
    }
    #expect(ResultRenderer.json(value) == nil)
    var shallow: any Sendable = 1
    for _ in 0..<3 { shallow = ["k": shallow] }
    #expect(try ResultRenderer.render(shallow) == #"{"k":{"k":{"k":1}}}"#)
  }

  @Test func canOpenSaysWhetherAndWhyWithoutCalling() throws {
    let mediator = try Fixtures.mediator(withFallback: true)
    let recorder = Recorder()
    mediator.intercept(
      .global,
      .before { call in
        recorder.record(call)
        return .proceed
      })
    func reason(_ url: String) -> MediatorError? {
      if case .failure(let error) = mediator.canOpen(url) { return error }
      return nil
    }
    #expect(
      try mediator.canOpen("app://calc/add?a=1").get()
        == ActionReference(target: "calc", action: "add"))
    #expect(
      reason("web://calc/add?a=1")
        == .wrongScheme(url: "web://calc/add?a=1", expected: "app", found: "web"))
    #expect(reason("app://calc/apply?a=1") == .notRemote(target: "calc", action: "apply"))
    #expect(
      reason("app://calc/add?a=x")
        == .invalidParameterValue(
          target: "calc", action: "add", key: "a", expected: "int", found: "x"))
    #expect(
      reason("app://calc/add")
        == .missingParameter(target: "calc", action: "add", key: "a", expected: "int"))
    // The local-only fallback does not take URLs; a remote one does.
    #expect(reason("app://ghost/boo") == .targetNotFound(target: "ghost", action: "boo"))
    #expect(reason("app://calc/divide") == .actionNotFound(target: "calc", action: "divide"))
    let remote = try Fixtures.mediator(withFallback: true, remoteFallback: true)
    #expect(
      try remote.canOpen("app://ghost/boo").get()
        == ActionReference(target: "diagnostics", action: "notFound"))
    #expect(recorder.calls.isEmpty)
  }
}
