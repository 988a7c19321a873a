import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryMediator

@Suite struct PerformTests {
  @Test func syncPerformCallsTheActionWithCheckedParameters() throws {
    let mediator = try Fixtures.mediator()
    #expect(
      try mediator.perform(target: "calc", action: "add", params: ["a": 2, "b": 3]) as? Int == 5)
  }

  @Test func asyncPerformCallsSyncAndAsyncActions() async throws {
    let mediator = try Fixtures.mediator()
    #expect(
      try await mediator.perform(target: "calc", action: "add", params: ["a": 1]) as? Int == 11)
    #expect(
      try await mediator.perform(target: "calc", action: "slow", params: ["a": 7]) as? Int == 7)
  }

  @Test func syncPerformOfAnAsyncActionIsATypedError() throws {
    let mediator = try Fixtures.mediator()
    let error = mediatorError {
      try mediator.perform(target: "calc", action: "slow", params: ["a": 1])
    }
    #expect(error == .asyncActionInSyncCall(target: "calc", action: "slow"))
    #expect(error?.description.contains("try await") == true)
  }

  @Test func declaredDefaultsAreFilledIn() throws {
    let mediator = try Fixtures.mediator()
    let greeting = try mediator.perform(target: "calc", action: "greet", params: ["name": "Ada"])
    #expect(greeting as? String == "Hello, Ada")
    let loud = try mediator.perform(
      target: "calc", action: "greet", params: ["name": "Ada", "greeting": "Hi", "loud": true])
    #expect(loud as? String == "Hi, Ada!")
  }

  @Test func missingRequiredParameterNamesTargetActionAndKey() throws {
    let mediator = try Fixtures.mediator()
    let error = mediatorError {
      try mediator.perform(target: "calc", action: "add", params: ["b": 1])
    }
    #expect(error == .missingParameter(target: "calc", action: "add", key: "a", expected: "int"))
    #expect(error?.description == "calc/add: missing required parameter 'a' (expected int)")
  }

  @Test func wrongParameterTypeIsRefusedBeforeTheActionRuns() throws {
    let mediator = try Fixtures.mediator()
    let error = mediatorError {
      try mediator.perform(target: "calc", action: "add", params: ["a": "2"])
    }
    #expect(
      error
        == .wrongParameterType(
          target: "calc", action: "add", key: "a", expected: "int", found: "String"))
    let bool = mediatorError {
      try mediator.perform(target: "calc", action: "greet", params: ["name": "x", "loud": 1])
    }
    #expect(
      bool
        == .wrongParameterType(
          target: "calc", action: "greet", key: "loud", expected: "bool", found: "Int"))
  }

  @Test func integersWidenToDeclaredDoubles() throws {
    let mediator = try Fixtures.mediator()
    let result = try mediator.perform(target: "calc", action: "scale", params: ["x": 3])
    #expect(result as? Double == 6)
  }

  @Test func arraysAndObjectsAreChecked() throws {
    let mediator = try Fixtures.mediator()
    #expect(
      try mediator.perform(target: "calc", action: "count", params: ["items": ["a", "b"]]) as? Int
        == 2)
    let keys = try mediator.perform(
      target: "calc", action: "keys",
      params: ["object": ["b": 1, "a": "x"] as [String: any Sendable]])
    #expect(keys as? [String] == ["a", "b"])
    let error = mediatorError {
      try mediator.perform(target: "calc", action: "count", params: ["items": "a"])
    }
    #expect(
      error
        == .wrongParameterType(
          target: "calc", action: "count", key: "items", expected: "array", found: "String"))
  }

  @Test func localCallsMayPassClosuresAndUndeclaredValues() throws {
    let mediator = try Fixtures.mediator()
    let transform: @Sendable (Int) -> Int = { $0 * 3 }
    let result = try mediator.perform(
      target: "calc", action: "apply", params: ["a": 5, "transform": transform, "extra": true])
    #expect(result as? Int == 15)
  }

  @Test func actionErrorsReachTheCaller() throws {
    let mediator = try Fixtures.mediator()
    #expect(throws: CalcFailure.requested) {
      try mediator.perform(target: "calc", action: "fail")
    }
  }

  @Test func parameterAccessorsReportMissingAndWrongKeys() throws {
    let params = Parameters(["a": 1], target: "t", action: "x")
    #expect(
      throws: MediatorError.missingParameter(target: "t", action: "x", key: "b", expected: "Int")
    ) {
      try params.int("b")
    }
    #expect(
      throws: MediatorError.wrongParameterType(
        target: "t", action: "x", key: "a", expected: "String", found: "Int")
    ) { try params.string("a") }
    #expect(try params.value("b", default: 4) == 4)
    #expect(try params.value("a", default: 4) == 1)
  }

  @Test func typedSyncPerformCastsOrReportsTheResultType() throws {
    let mediator = try Fixtures.mediator()
    #expect(
      try mediator.perform(target: "calc", action: "add", params: ["a": 2], as: Int.self) == 12)
    let error = mediatorError {
      try mediator.perform(target: "calc", action: "add", params: ["a": 1], as: Bool.self)
    }
    #expect(
      error == .wrongResultType(target: "calc", action: "add", expected: "Bool", found: "Int"))
  }

  @Test func typedPerformCastsOrReportsTheResultType() async throws {
    let mediator = try Fixtures.mediator()
    let sum = try await mediator.perform(
      target: "calc", action: "add", params: ["a": 1], as: Int.self)
    #expect(sum == 11)
    let error = await asyncMediatorError {
      try await mediator.perform(target: "calc", action: "add", params: ["a": 1], as: String.self)
    }
    #expect(
      error == .wrongResultType(target: "calc", action: "add", expected: "String", found: "Int"))
    let none = try await mediator.perform(
      target: "calc", action: "echo", params: [:], as: (any Sendable)?.self)
    #expect(none == nil)
  }
}
