import Testing

@testable import Apiary

/// Interceptor order is structural: global wraps target wraps action, whatever the order of
/// installation; installation order within a scope.
@Suite struct InterceptorOrderTests {
  @Test func globalWrapsTargetWrapsActionWhateverTheInstallationOrder() throws {
    let mediator = try Fixtures.mediator()
    let recorder = Recorder()
    func install(_ scope: Interceptor.Scope, _ name: String) {
      mediator.intercept(
        scope,
        Interceptor(
          before: { _ in
            recorder.note("before \(name)")
            return .proceed
          },
          after: { _, _ in recorder.note("after \(name)") }))
    }
    install(.action(target: "calc", action: "add"), "action1")
    install(.target("calc"), "target1")
    install(.global, "global1")
    install(.action(target: "calc", action: "add"), "action2")
    install(.global, "global2")
    _ = try mediator.perform(target: "calc", action: "add", params: ["a": 1])
    #expect(
      recorder.log == [
        "before global1", "before global2", "before target1", "before action1", "before action2",
        "after action1", "after action2", "after target1", "after global1", "after global2",
      ])
  }

  @Test func theInnermostInsteadReplacesTheAction() throws {
    let mediator = try Fixtures.mediator()
    mediator.intercept(.action(target: "calc", action: "add"), .instead { _ in "action" })
    mediator.intercept(.global, .instead { _ in "global" })
    mediator.intercept(.target("calc"), .instead { _ in "target" })
    #expect(
      try mediator.perform(target: "calc", action: "add", params: ["a": 1]) as? String == "action")
    #expect(try mediator.perform(target: "calc", action: "id") as? String == "target")
  }

  @Test func aVetoStopsInnerBeforesButEveryAfterRuns() throws {
    let mediator = try Fixtures.mediator()
    let recorder = Recorder()
    mediator.intercept(
      .action(target: "calc", action: "id"),
      .before { _ in
        recorder.note("inner before")
        return .proceed
      })
    mediator.intercept(.global, .before { _ in .veto("closed") })
    mediator.intercept(
      .action(target: "calc", action: "id"), .after { _, _ in recorder.note("inner after") })
    let error = mediatorError { try mediator.perform(target: "calc", action: "id") }
    #expect(error == .vetoed(target: "calc", action: "id", reason: "closed"))
    #expect(recorder.log == ["inner after"])
  }
}
