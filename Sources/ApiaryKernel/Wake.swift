import ApiaryLifecycle
import ApiaryManifest
import ApiarySupport
import Dispatch
import Synchronization

/// The switch a dormant (lazy) module's placeholders pull on first use: the placeholders of its
/// declared services, its targets' maker and, as the placeholder of its activation events,
/// itself. Once the module runs, pulling it costs one atomic load. It holds its manifest, its
/// kernel's ``Route`` and no closures, so putting a module to sleep allocates this one object
/// and no lock.
///
/// A trigger from inside a module hook (`HookLane.isRunning`) wakes the module without waiting
/// for the kernel's change in progress, which is waiting for that very hook.
///
/// ```swift
/// let route = Wake.Route(kernel, on: executor)  // one per kernel
/// let wake = Wake(manifest, route: route, atOnce: false)
/// try wake.now(.target("search"))  // blocks until 'search' runs
/// ```
final class Wake: Sendable {
  /// The module's context, set once when it runs; its targets are made with it.
  private let woken = AtomicLazyReference<ModuleContext>()
  private let route: Route
  /// The dormant module's manifest, which the kernel wakes it with.
  let manifest: ModuleManifest
  private var name: String { manifest.name }
  /// Whether the kernel may wake the module on the calling thread (a module without hooks),
  /// when it can do so without a hand-off.
  private let atOnce: Bool
  private var kernel: Kernel? { route.kernel }

  /// Where the wakes of one kernel's modules go: the kernel, held weakly (a dormant module does
  /// not keep it alive), and its executor. Shared, so putting a module to sleep makes no weak
  /// reference of its own.
  final class Route: Sendable {
    weak let kernel: Kernel?
    let executor: KernelExecutor

    init(_ kernel: Kernel, on executor: KernelExecutor) {
      self.kernel = kernel
      self.executor = executor
    }
  }

  init(_ manifest: ModuleManifest, route: Route, atOnce: Bool) {
    self.manifest = manifest
    self.route = route
    self.atOnce = atOnce
  }

  /// Called by the kernel once the module runs, with the context it runs in.
  func markAwake(_ context: ModuleContext) {
    _ = woken.storeIfNil(context)
  }

  /// The module's context once it runs; its targets are made with it.
  var context: ModuleContext? { woken.load() }

  /// Wakes the module unless it runs, and returns once it does.
  func callAsFunction(_ trigger: ActivationTrigger) async throws(ActivationError) {
    guard woken.load() == nil else { return }
    try await Self.activate(kernel, name, trigger, HookLane.isRunning)
  }

  /// Wakes the module unless it runs, blocking the calling thread until it does: for a resolve
  /// or a synchronous call, which cannot suspend. The wake-up is a task on the kernel's own
  /// executor and hooks run on the hook executor, so the blocked thread is never one they need,
  /// and the caller is resumed from the kernel's thread without another hand-off.
  func now(_ trigger: ActivationTrigger) throws(ActivationError) {
    guard woken.load() == nil else { return }
    let nested = HookLane.isRunning
    if !nested, atOnce, let woke = kernel?.wakeAtOnce(name, trigger: trigger) {
      return try woke.get()
    }
    let done = DispatchSemaphore(value: 0)
    let failure = Locked<ActivationError?>(nil)
    let (kernel, name) = (self.kernel, self.name)
    Task(executorPreference: route.executor) {
      do throws(ActivationError) {
        try await Self.activate(kernel, name, trigger, nested)
      } catch {
        failure.withLock { $0 = error }
      }
      done.signal()
    }
    done.wait()
    if let error = failure.withLock({ $0 }) { throw error }
  }

  private static func activate(
    _ kernel: Kernel?, _ name: String, _ trigger: ActivationTrigger, _ nested: Bool
  ) async throws(ActivationError) {
    guard let kernel else {
      throw ActivationError(
        module: name, phase: .load, trigger: trigger,
        cause: KernelError.wrongState(operation: "wake module '\(name)'", state: "released"))
    }
    try await kernel.activate(name, trigger: trigger, nested: nested)
  }
}

extension Wake: EventPlaceholder {
  var seconds: Double { manifest.startTimeout }

  /// Wakes the module on its activation event; the bus then delivers the event to the handlers
  /// its `setUp` subscribed.
  func wake(for event: Event) async throws {
    try await self(.event(event.name))
  }
}
