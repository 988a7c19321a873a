import Dispatch
import Testing

@testable import ApiaryKernel

/// The lanes that run module hooks.
@Suite struct HookLaneTests {
  /// Tells when it is released.
  private final class Probe: Sendable {
    let released: DispatchSemaphore
    init(_ released: DispatchSemaphore) { self.released = released }
    deinit { released.signal() }
  }

  /// A lane is released once its hooks have run, not when their time limit would have expired:
  /// the watchdog held every lane, with its hooks and what they captured, for the module's
  /// `timeout`, so a host that loads and removes modules grew by each one's lanes.
  @Test func aLaneIsReleasedOnceItsHooksHaveRun() async {
    let released = DispatchSemaphore(value: 0)
    /// The hook is made and dropped here, so only the lane can keep its probe.
    func run() async -> Int {
      let probe = Probe(released)
      return await HookLane.run([Hook(seconds: 3600) { _ = probe }], on: HookExecutor()).count
    }
    #expect(await run() == 1)
    // The lane's task ends just after the last hook's outcome; its release follows.
    #expect(released.wait(timeout: .now() + 10) == .success, "the hook's captures were kept")
  }
}
