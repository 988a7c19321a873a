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

  /// Actions that block each hold a thread of their own at once, however many there are, so a
  /// call to another action made meanwhile runs at once too. Before, they queued for Dispatch's
  /// few global threads (one more a second or so): a hostile probe's 40 hung calls made every
  /// other module's calls miss their 30 s limit. The calls are made from threads of their own
  /// (``OwnThreads``), so the rest of the test run, busy on Swift's pool, cannot delay them.
  @Test func blockedActionsDoNotHoldBackOtherCalls() async throws {
    let mediator = try GateTarget.mediator()
    let (latch, entered, threads) = (Latch(), DispatchSemaphore(value: 0), OwnThreads())
    defer { latch.open() }
    let held = 48
    for index in 0..<held {
      Task(executorPreference: threads) {
        try await mediator.perform(
          target: "gate", action: index.isMultiple(of: 2) ? "hold" : "holdAsync",
          params: ["latch": latch, "entered": entered])
      }
    }
    // Every one is running, blocked. A bound, not a measurement: they all enter within
    // milliseconds; before, the last one entered after about 48 s.
    let deadline = DispatchTime.now() + 20
    let allEntered = await Task(executorPreference: threads) {
      (0..<held).allSatisfy { _ in entered.wait(timeout: deadline) == .success }
    }.value
    guard allEntered else {
      Issue.record("\(held) blocked actions did not all get a thread within 20 s")
      return
    }
    for action in ["free", "freeAsync"] {
      let result = try await Task(executorPreference: threads) {
        try await mediator.perform(target: "gate", action: action, params: [:])
      }.value
      #expect(result as? Bool == true, "\(action)")
    }
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

/// Runs each job of a task on a thread Dispatch makes for it when none is free, outside
/// Swift's pool.
final class OwnThreads: TaskExecutor {
  func enqueue(_ job: consuming ExecutorJob) {
    let (job, executor) = (UnownedJob(job), asUnownedTaskExecutor())
    DispatchQueue(label: "test.own-thread").async { job.runSynchronously(on: executor) }
  }
}

/// A lock a test opens; actions block on it as module code blocks on a lock or a system call,
/// which Dispatch cannot see (a thread waiting on a `DispatchSemaphore` it replaces).
final class Latch: @unchecked Sendable {
  private let condition = NSCondition()
  private var isOpen = false  // guarded by `condition`

  func wait() {
    condition.lock()
    while !isOpen { condition.wait() }
    condition.unlock()
  }

  func open() {
    condition.lock()
    isOpen = true
    condition.broadcast()
    condition.unlock()
  }
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
    "hold": .sync { _, params in
      try params.value("entered", as: DispatchSemaphore.self).signal()
      try params.value("latch", as: Latch.self).wait()
      return true
    },
    "holdAsync": .async { _, params in
      try params.value("entered", as: DispatchSemaphore.self).signal()
      try params.value("latch", as: Latch.self).wait()
      return true
    },
    "free": .sync { _, _ in true },
    "freeAsync": .async { _, _ in true },
  ]

  static func mediator() throws -> Mediator {
    let mediator = Mediator(scheme: Fixtures.scheme, catalog: TypeCatalog())
    let gate = ParameterManifest(name: "gate", kind: .any, isRequired: true)
    let entered = ParameterManifest(name: "entered", kind: .any, isRequired: true)
    let latch = ParameterManifest(name: "latch", kind: .any, isRequired: true)
    try mediator.addTargets(
      [
        TargetManifest(
          name: "gate", type: "ApiaryTests.GateTarget",
          actions: [
            ActionManifest(name: "block", parameters: [gate], timeout: timeout),
            ActionManifest(name: "blockAsync", parameters: [gate], timeout: timeout),
            ActionManifest(name: "hold", parameters: [latch, entered], timeout: 60),
            ActionManifest(name: "holdAsync", parameters: [latch, entered], timeout: 60),
            ActionManifest(name: "free", timeout: 20),
            ActionManifest(name: "freeAsync", timeout: 20),
          ])
      ], owner: "gate", context: Fixtures.context(mediator, module: "gate"))
    return mediator
  }
}
