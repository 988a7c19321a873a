import ApiarySupport
import Dispatch
import Synchronization

/// The switch a dormant (lazy) module's placeholders pull on first use: the placeholders of its
/// declared services, its targets' maker and its activation events' handlers. Once the module
/// runs, pulling it costs one atomic load.
///
/// A trigger from inside a module hook (`HookLane.isRunning`) wakes the module without waiting
/// for the kernel's change in progress, which is waiting for that very hook.
///
/// ```swift
/// let wake = Wake { trigger, nested throws(ActivationError) in
///   try await kernel.activate("search", trigger: trigger, nested: nested)
/// }
/// try wake.now(.target("search"))  // blocks until 'search' runs
/// ```
final class Wake: Sendable {
  typealias Activate =
    @Sendable (ActivationTrigger, _ nested: Bool) async throws(ActivationError) -> Void

  private let awake = Atomic<Bool>(false)
  private let woken = Locked<ModuleContext?>(nil)
  private let activate: Activate
  private let executor: HookExecutor

  init(on executor: HookExecutor, _ activate: @escaping Activate) {
    self.executor = executor
    self.activate = activate
  }

  /// Called by the kernel once the module runs, with the context it runs in.
  func markAwake(_ context: ModuleContext) {
    woken.withLock { $0 = context }
    awake.store(true, ordering: .releasing)
  }

  /// The module's context once it runs; its targets are made with it.
  var context: ModuleContext? { woken.withLock { $0 } }

  /// Wakes the module unless it runs, and returns once it does.
  func callAsFunction(_ trigger: ActivationTrigger) async throws(ActivationError) {
    guard !awake.load(ordering: .acquiring) else { return }
    try await activate(trigger, HookLane.isRunning)
  }

  /// Wakes the module unless it runs, blocking the calling thread until it does: for a resolve
  /// or a synchronous call, which cannot suspend. The kernel acts on its own executor and hooks
  /// run on the hook executor, so the blocked thread is never one they need.
  func now(_ trigger: ActivationTrigger) throws(ActivationError) {
    guard !awake.load(ordering: .acquiring) else { return }
    let nested = HookLane.isRunning
    let done = DispatchSemaphore(value: 0)
    let failure = Locked<ActivationError?>(nil)
    let activate = self.activate
    Task(executorPreference: executor) {
      do throws(ActivationError) {
        try await activate(trigger, nested)
      } catch {
        failure.withLock { $0 = error }
      }
      done.signal()
    }
    done.wait()
    if let error = failure.withLock({ $0 }) { throw error }
  }
}
