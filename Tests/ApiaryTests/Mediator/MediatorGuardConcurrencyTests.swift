import Dispatch
import Foundation
import Testing

@testable import Apiary

/// Once-only interceptors under racing calls, and action time limits that hold while actions
/// block their threads. Named to run under CI's thread sanitizer; gates, not sleeps, order the
/// threads.
@Suite struct MediatorGuardConcurrencyTests {
  @Test func aOnceOnlyInterceptorFiresExactlyOnceUnderRacingCalls() throws {
    let mediator = try Fixtures.mediator()
    let fired = Locked(0)
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    mediator.intercept(
      .target("calc"),
      .before { _ in
        fired.withLock { $0 += 1 }
        entered.signal()
        release.wait()  // hold the claimer inside while every other call runs
        return .proceed
      }, once: true)
    let calls = 8
    for _ in 0..<calls {
      DispatchQueue.global().async {
        _ = try? mediator.perform(target: "calc", action: "id")
        finished.signal()
      }
    }
    entered.wait()
    // Every other call finishes while the claimer is held: none of them ran the interceptor.
    for _ in 1..<calls { finished.wait() }
    #expect(fired.withLock { $0 } == 1)
    release.signal()
    finished.wait()
    _ = try mediator.perform(target: "calc", action: "id")
    #expect(fired.withLock { $0 } == 1)
  }

  @Test func blockedActionsTimeOutEvenWhenTheyOutnumberThePoolThreads() async throws {
    let mediator = try GateTarget.mediator()
    let gate = Gate()
    defer { gate.open() }
    let calls = ProcessInfo.processInfo.activeProcessorCount + 2
    let errors = await withTaskGroup(of: MediatorError?.self) { group in
      for index in 0..<calls {
        group.addTask {
          await asyncMediatorError {
            try await mediator.perform(
              target: "gate", action: index.isMultiple(of: 2) ? "block" : "blockAsync",
              params: ["gate": gate])
          }
        }
      }
      var errors: [MediatorError?] = []
      for await error in group { errors.append(error) }
      return errors
    }
    #expect(errors.count == calls)
    for error in errors {
      guard case .timedOut(target: "gate", let action, let seconds)? = error?.details else {
        Issue.record("expected timedOut, got \(String(describing: error))")
        continue
      }
      #expect(action.hasPrefix("block") && seconds == GateTarget.timeout)
    }
    #expect(
      MediatorError.timedOut(target: "gate", action: "block", seconds: 2).description
        == "gate/block: did not finish within 2.0 s (the action's 'timeout' in its manifest; "
        + "default 30.0 s)")
  }

  @Test func aSynchronousCallRunsOnTheCallersThreadWithoutADeadline() throws {
    let mediator = try GateTarget.mediator()
    let gate = Gate()
    gate.open()
    #expect(
      try mediator.perform(target: "gate", action: "block", params: ["gate": gate]) as? Bool == true
    )
  }
}

/// A semaphore a test opens; actions block on it.
final class Gate: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)
  func wait() { semaphore.wait() }
  /// Lets every waiter, present and future, through.
  func open() { for _ in 0..<64 { semaphore.signal() } }
}

/// Actions that block their thread until the test opens the gate.
final class GateTarget: Target {
  static let timeout = 0.2

  init(context: ModuleContext) throws {}

  static let actions: ActionTable<GateTarget> = [
    "block": .sync { _, params in
      try params.value("gate", as: Gate.self).wait()
      return true
    },
    "blockAsync": .async { _, params in
      try params.value("gate", as: Gate.self).wait()
      return true
    },
  ]

  static func mediator() throws -> Mediator {
    let mediator = Mediator(scheme: Fixtures.scheme, catalog: TypeCatalog())
    let gate = ParameterManifest(name: "gate", kind: .any, isRequired: true)
    try mediator.addTargets(
      [
        TargetManifest(
          name: "gate", type: "ApiaryTests.GateTarget",
          actions: [
            ActionManifest(name: "block", parameters: [gate], timeout: timeout),
            ActionManifest(name: "blockAsync", parameters: [gate], timeout: timeout),
          ])
      ], owner: "gate", context: Fixtures.context(mediator, module: "gate"))
    return mediator
  }
}
