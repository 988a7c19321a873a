import Synchronization
import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryMediator

@Suite struct NotFoundTests {
  @Test func missingTargetWithoutFallbackIsATypedError() throws {
    let mediator = try Fixtures.mediator()
    let error = mediatorError { try mediator.perform(target: "nope", action: "x") }
    #expect(error == .targetNotFound(target: "nope", action: "x"))
    #expect(error?.description.contains("no target 'nope'") == true)
  }

  @Test func missingActionGoesToTheTargetsHandlerFirst() throws {
    let mediator = try Fixtures.mediator(withFallback: true)
    let result = try mediator.perform(target: "calc", action: "legacyAdd", params: ["a": 1])
    #expect(result as? String == "legacy:legacyAdd")
  }

  @Test func missingActionUnhandledByTheTargetGoesToTheFallback() throws {
    let mediator = try Fixtures.mediator(withFallback: true)
    let result = try mediator.perform(target: "calc", action: "divide", params: ["a": 1])
    #expect(result as? String == "fallback calc/divide from local")
  }

  @Test func missingTargetGoesToTheFallbackWithTheOriginalCall() async throws {
    let mediator = try Fixtures.mediator(withFallback: true)
    let seen = Recorder()
    mediator.intercept(
      .action(target: "diagnostics", action: "notFound"),
      .before { call in
        seen.record(call)
        return .proceed
      })
    let result = try await mediator.perform(target: "ghost", action: "boo", params: ["k": 1])
    #expect(result as? String == "fallback ghost/boo from local")
    let params = seen.calls.first?.params
    #expect((params?["params"] as? [String: any Sendable])?["k"] as? Int == 1)
  }

  @Test func missingActionWithoutFallbackIsATypedError() async throws {
    let mediator = try Fixtures.mediator()
    let error = mediatorError { try mediator.perform(target: "calc", action: "divide") }
    #expect(error == .actionNotFound(target: "calc", action: "divide"))
    let asyncError = await asyncMediatorError {
      try await mediator.perform(target: "calc", action: "divide")
    }
    #expect(asyncError == .actionNotFound(target: "calc", action: "divide"))
  }

  @Test func aFallbackThatIsNotRegisteredEndsInTheTypedError() throws {
    let mediator = Mediator(
      scheme: "app", catalog: TypeCatalog(),
      fallback: ActionReference(target: "diagnostics", action: "notFound"))
    try mediator.addTargets([Fixtures.calc], owner: "calc", context: Fixtures.context(mediator))
    let error = mediatorError { try mediator.perform(target: "calc", action: "divide") }
    #expect(error == .actionNotFound(target: "calc", action: "divide"))
  }

  @Test func remoteCallsStayRemoteThroughTheNotFoundChain() async throws {
    // The fallback is local-only: a URL naming no target must not reach it.
    let mediator = try Fixtures.mediator(withFallback: true)
    let handled = try await mediator.open("app://calc/legacyThing")
    #expect(handled as? String == "legacy:legacyThing")
    let refused = await asyncMediatorError { try await mediator.open("app://ghost/boo?x=1") }
    #expect(refused == .targetNotFound(target: "ghost", action: "boo"))
    let missingAction = mediatorError { try mediator.open("app://calc/divide") }
    #expect(missingAction == .actionNotFound(target: "calc", action: "divide"))
    // Declared remote, it takes the URL and sees the call's origin as a typed value.
    let remote = try Fixtures.mediator(withFallback: true, remoteFallback: true)
    let fallback = try await remote.open("app://ghost/boo?x=1")
    #expect(fallback as? String == "fallback ghost/boo from app://ghost/boo?x=1")
    let local = try await remote.perform(target: "ghost", action: "boo")
    #expect(local as? String == "fallback ghost/boo from local")
    let plain = try Fixtures.mediator()
    let error = mediatorError { try plain.open("app://ghost/boo") }
    #expect(error == .targetNotFound(target: "ghost", action: "boo"))
  }

  @Test func theTargetsHandlerSeesARemoteOrigin() throws {
    let mediator = try Fixtures.mediator()
    let remote = try mediator.open("app://calc/whereFrom")
    #expect(remote as? ActionCall.Origin == .remote(url: "app://calc/whereFrom"))
    let local = try mediator.perform(target: "calc", action: "whereFrom")
    #expect(local as? ActionCall.Origin == .local)
  }
}

/// Collects calls seen by interceptors, from any thread.
final class Recorder: Sendable {
  private let storage = Locked<[ActionCall]>([])
  private let events = Locked<[String]>([])

  func record(_ call: ActionCall) { storage.withLock { $0.append(call) } }
  func note(_ event: String) { events.withLock { $0.append(event) } }
  var calls: [ActionCall] { storage.withLock { $0 } }
  var log: [String] { events.withLock { $0 } }
}
