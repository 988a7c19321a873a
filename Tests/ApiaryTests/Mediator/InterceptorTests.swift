import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryMediator

@Suite struct InterceptorTests {
  @Test func beforeSeesCheckedParametersAndMayVeto() throws {
    let mediator = try Fixtures.mediator()
    let recorder = Recorder()
    mediator.intercept(
      .target("calc"),
      .before { call in
        recorder.record(call)
        return call.params["a"] as? Int == 13 ? .veto("unlucky") : .proceed
      })
    #expect(try mediator.perform(target: "calc", action: "add", params: ["a": 1]) as? Int == 11)
    #expect(recorder.calls.first?.params["b"] as? Int == 10)  // the default is filled in
    #expect(recorder.calls.first?.origin == .local)
    let error = mediatorError {
      try mediator.perform(target: "calc", action: "add", params: ["a": 13])
    }
    #expect(error == .vetoed(target: "calc", action: "add", reason: "unlucky"))
    #expect(error?.description == "calc/add: refused by an interceptor: unlucky")
  }

  @Test func insteadReplacesTheActionAndTheLatestWins() async throws {
    let mediator = try Fixtures.mediator()
    mediator.intercept(.action(target: "calc", action: "add"), .instead { _ in "first" })
    mediator.intercept(.action(target: "calc", action: "add"), .instead { _ in "second" })
    let sync = try synchronously {
      try mediator.perform(target: "calc", action: "add", params: ["a": 1])
    }
    #expect(sync as? String == "second")
    #expect(
      try await mediator.perform(target: "calc", action: "add", params: ["a": 1]) as? String
        == "second")
    // Other actions are untouched.
    #expect(
      try await mediator.perform(target: "calc", action: "scale", params: ["x": 1]) as? Double == 2)
  }

  @Test func afterSeesResultsErrorsAndVetoes() async throws {
    let mediator = try Fixtures.mediator()
    let recorder = Recorder()
    mediator.intercept(
      .global,
      .after { call, result in
        switch result {
        case .success(let value):
          recorder.note("\(call.action) ok \(value.map { "\($0)" } ?? "nil")")
        case .failure(let error): recorder.note("\(call.action) failed \(error)")
        }
      })
    _ = try synchronously { try mediator.perform(target: "calc", action: "add", params: ["a": 1]) }
    _ = try? synchronously { try mediator.perform(target: "calc", action: "fail") }
    _ = try await mediator.perform(target: "calc", action: "slow", params: ["a": 2])
    mediator.intercept(.global, .before { _ in .veto("closed") })
    _ = try? await mediator.perform(target: "calc", action: "slow", params: ["a": 2])
    #expect(
      recorder.log == [
        "add ok 11", "fail failed requested", "slow ok 2",
        "slow failed calc/slow: refused by an interceptor: closed",
      ])
  }

  @Test func scopesSelectCallsAndRunInInstallationOrder() throws {
    let mediator = try Fixtures.mediator(withFallback: true)
    let recorder = Recorder()
    for (name, scope) in [
      ("global", Interceptor.Scope.global), ("calc", .target("calc")),
      ("add", .action(target: "calc", action: "add")), ("other", .target("other")),
    ] {
      mediator.intercept(
        scope,
        .before { _ in
          recorder.note(name)
          return .proceed
        })
    }
    _ = try mediator.perform(target: "calc", action: "add", params: ["a": 1])
    #expect(recorder.log == ["global", "calc", "add"])
    _ = try mediator.perform(target: "calc", action: "scale", params: ["x": 1])
    #expect(recorder.log == ["global", "calc", "add", "global", "calc"])
  }

  @Test func remoteCallsAreInterceptedWithTheirOrigin() throws {
    let mediator = try Fixtures.mediator()
    let recorder = Recorder()
    mediator.intercept(
      .global,
      .before { call in
        recorder.record(call)
        return .proceed
      })
    #expect(try mediator.open("app://calc/add?a=5") as? Int == 15)
    #expect(recorder.calls.first?.origin == .remote(url: "app://calc/add?a=5"))
    #expect(recorder.calls.first?.params["a"] as? Int == 5)
  }

  @Test func removingByTokenStopsTheInterceptor() throws {
    let mediator = try Fixtures.mediator()
    let token = mediator.intercept(.global, .before { _ in .veto("no") })
    #expect(mediatorError { try mediator.perform(target: "calc", action: "id") } != nil)
    #expect(mediator.removeInterceptor(token))
    #expect(!mediator.removeInterceptor(token))
    #expect(try mediator.perform(target: "calc", action: "id") is Int)
  }

  @Test func insteadCanServeAnAsyncActionFromASyncCall() throws {
    let mediator = try Fixtures.mediator()
    mediator.intercept(.action(target: "calc", action: "slow"), .instead { _ in 42 })
    #expect(try mediator.perform(target: "calc", action: "slow", params: ["a": 1]) as? Int == 42)
  }
}
