import ApiaryContainer
import ApiaryLifecycle
import ApiaryManifest
import ApiaryMediator
import ApiarySupport
import Synchronization

/// The facade: turns manifests into a running application and back.
///
/// The kernel orders modules (its boot plan), sets each up (binding its manifest services and
/// targets first), starts them — async modules concurrently once their dependencies have
/// started — calls `ready`, and tears everything down in exact reverse of start order. Modules can
/// be added and removed while the application runs.
///
/// ```swift
/// let kernel = try Kernel(application: app, modules: modules)
/// try await kernel.boot()
/// let report = await kernel.events.post("note.saved", payload: ["id": "1"])
/// await kernel.shutdown()
/// ```
public actor Kernel {
  public nonisolated let application: ApplicationManifest
  package nonisolated let plan: BootPlan
  package nonisolated let catalog: TypeCatalog
  public nonisolated let container: Container
  public nonisolated let mediator: Mediator
  public nonisolated let events: EventBus
  public nonisolated let profiler: Profiler

  private let observer: (@Sendable (LifecycleRecord) -> Void)?
  private let clock = ContinuousClock()
  private var bootedAt: ContinuousClock.Instant?
  private var phase = Phase.idle
  private var loaded: [String: Loaded] = [:]
  private var states: [String: ModuleState] = [:]
  /// Names in the order their `start` finished; teardown runs in reverse.
  private var startOrder: [String] = []
  private var order: [String]
  private var nextRank: Int
  /// ``BootCheck`` problems found at the start of `boot`, consumed as each module is installed.
  private var linkProblems: [String: [ManifestProblem]] = [:]

  private enum Phase: String { case idle, booting, running, stopping, stopped }

  private struct Loaded {
    let manifest: ModuleManifest
    let module: any Module
    let context: ModuleContext
  }

  /// Plans the given modules. `observer` sees every lifecycle step as it happens.
  public init(
    application: ApplicationManifest,
    modules: [ModuleManifest],
    catalog: TypeCatalog = TypeCatalog(),
    observer: (@Sendable (LifecycleRecord) -> Void)? = nil
  ) throws(KernelError) {
    do {
      self.plan = try BootPlan(modules: modules)
    } catch {
      throw .plan(error)
    }
    self.application = application
    self.catalog = catalog
    self.profiler = Profiler()
    self.container = Container()
    self.mediator = Mediator(
      scheme: application.scheme, catalog: catalog, fallback: application.fallback)
    self.events = EventBus(profiler: profiler)
    self.observer = observer
    self.order = plan.modules.map(\.name)
    self.nextRank = plan.modules.count
    for module in plan.modules { states[module.name] = .planned }
  }

  /// Every planned or added module with its state, in boot order.
  public var moduleStates: [(name: String, state: ModuleState)] {
    order.compactMap { name in states[name].map { (name, $0) } }
  }

  /// The state of one module, or nil when no module has that name.
  public func state(of name: String) -> ModuleState? { states[name] }

  /// Names of running modules in the order they started.
  public var startedModules: [String] { startOrder }

  // MARK: Boot

  /// Sets up, starts and readies every planned module.
  ///
  /// A required module that fails fails the boot: modules already started are torn down in
  /// reverse and the error names the module, the phase and the cause. An optional module that
  /// fails is marked failed, and modules that depend on it are skipped.
  public func boot() async throws(KernelError) {
    guard phase == .idle else { throw .wrongState(operation: "boot", state: phase.rawValue) }
    phase = .booting
    bootedAt = clock.now
    do {
      try link()
      for (rank, manifest) in plan.modules.enumerated() {
        try install(manifest, rank: rank)
      }
      try buildEagerSingletons()
      try await startAll(plan.modules.map(\.name))
      await readyAll(startOrder)
      phase = .running
    } catch {
      await rollBack()
      phase = .stopped
      throw error
    }
  }

  /// Checks every planned module with ``BootCheck`` before any module code runs: problems of
  /// required modules fail the boot together; an optional module with problems fails alone
  /// when it is installed.
  private func link() throws(KernelError) {
    var required: [ManifestProblem] = []
    for manifest in plan.modules {
      let problems = BootCheck.problems(manifest, catalog: catalog)
      linkProblems[manifest.name] = problems
      if !manifest.isOptional { required += problems }
    }
    if !required.isEmpty { throw .invalidManifests(required) }
  }

  /// Creates the module, binds its manifest services and targets, and runs `setUp`.
  private func install(_ manifest: ModuleManifest, rank: Int) throws(KernelError) {
    if let reason = blockingReason(manifest) {
      skip(manifest.name, phase: .setUp, reason: reason)
      return
    }
    let problems =
      linkProblems.removeValue(forKey: manifest.name)
      ?? BootCheck.problems(manifest, catalog: catalog)
    if !problems.isEmpty {
      try fail(manifest, phase: .load, error: KernelError.invalidManifests(problems))
      return
    }
    let type: any Module.Type
    switch catalog.lookup(manifest.type) {
    case let found as any Module.Type:
      type = found
    case let other:
      let error = KernelError.unresolvedType(
        module: manifest.name, type: manifest.type, foundButNotModule: other != nil)
      try fail(manifest, phase: .load, error: error)
      return
    }
    let context = ModuleContext(
      manifest: manifest, application: application,
      container: container.owned(by: manifest.name), mediator: mediator,
      events: events.owned(by: manifest.name, rank: rank))
    let module = type.init()
    loaded[manifest.name] = Loaded(manifest: manifest, module: module, context: context)
    let began = clock.now
    do {
      for service in manifest.services {
        try context.container.bind(service, catalog: catalog)
      }
      try mediator.addTargets(manifest.targets, owner: manifest.name, context: context)
      try module.setUp(context)
    } catch {
      try fail(manifest, phase: .setUp, error: error)
      return
    }
    finished(manifest.name, .setUp, since: began)
    states[manifest.name] = .setUp
  }

  private func buildEagerSingletons() throws(KernelError) {
    do {
      try container.buildEagerSingletons()
    } catch {
      throw .hookFailed(module: "container", phase: .setUp, cause: error)
    }
  }

  /// Starts `names` (in plan order): sync modules one at a time, async modules concurrently
  /// once their dependencies have started. Start order is the order in which `start` finished,
  /// so a module always comes after its dependencies.
  private func startAll(_ names: [String]) async throws(KernelError) {
    var handles: [String: Task<StartOutcome, Never>] = [:]
    let finishOrder = FinishOrder()
    var firstFailure: KernelError?
    for name in names {
      guard states[name] == .setUp, let entry = loaded[name] else { continue }
      let dependencies = entry.manifest.dependencies.compactMap { handles[$0] }
      let task = Task { [entry] () -> StartOutcome in
        for dependency in dependencies {
          guard case .started = await dependency.value else { return .blocked }
        }
        let outcome = await Self.start(entry.module, entry.context)
        if case .started = outcome { finishOrder.names.withLock { $0.append(name) } }
        return outcome
      }
      handles[name] = task
      if !entry.manifest.isAsync, let failure = record(await task.value, for: entry.manifest) {
        firstFailure = failure
        break
      }
    }
    // Wait for async modules still in flight, in plan order.
    for name in names {
      guard let task = handles[name], let entry = loaded[name], entry.manifest.isAsync else {
        continue
      }
      if let failure = record(await task.value, for: entry.manifest), firstFailure == nil {
        firstFailure = failure
      }
    }
    startOrder.append(contentsOf: finishOrder.names.withLock { $0 })
    if let firstFailure { throw firstFailure }
  }

  /// Names of modules in the order their `start` finished, written from start tasks.
  private final class FinishOrder: Sendable {
    let names = Locked<[String]>([])
  }

  private enum StartOutcome: Sendable {
    case started(Duration, finishedAt: ContinuousClock.Instant)
    case failed(any Error, Duration, finishedAt: ContinuousClock.Instant)
    case blocked
  }

  private static func start(_ module: any Module, _ context: ModuleContext) async -> StartOutcome {
    let clock = ContinuousClock()
    let began = clock.now
    do {
      try await Deadline.run(seconds: context.manifest.startTimeout) {
        try await module.start(context)
      }
      let now = clock.now
      return .started(now - began, finishedAt: now)
    } catch {
      let now = clock.now
      return .failed(error, now - began, finishedAt: now)
    }
  }

  /// Applies a start outcome; returns the error when it fails the boot.
  private func record(_ outcome: StartOutcome, for manifest: ModuleManifest) -> KernelError? {
    switch outcome {
    case .started(let duration, let finishedAt):
      states[manifest.name] = .running
      report(manifest.name, .start, .succeeded, duration, at: finishedAt)
      return nil
    case .failed(let error, let duration, let finishedAt):
      report(manifest.name, .start, .failed(error), duration, at: finishedAt)
      do {
        try fail(manifest, phase: .start, error: error, reported: true)
        return nil
      } catch {
        return error
      }
    case .blocked:
      let reason = blockingReason(manifest) ?? "a dependency did not start"
      skip(manifest.name, phase: .start, reason: reason)
      return nil
    }
  }

  private func readyAll(_ names: [String]) async {
    for name in names {
      guard let entry = loaded[name] else { continue }
      let began = clock.now
      do {
        try await Deadline.run(seconds: entry.manifest.startTimeout) {
          await entry.module.ready(entry.context)
        }
        finished(name, .ready, since: began)
      } catch {
        report(name, .ready, .failed(error), clock.now - began)
      }
    }
  }

  // MARK: Failure

  /// Marks an optional module failed and removes what it registered; rethrows for a required one.
  private func fail(
    _ manifest: ModuleManifest, phase: LifecyclePhase, error: any Error, reported: Bool = false
  ) throws(KernelError) {
    if !reported { report(manifest.name, phase, .failed(error), .zero) }
    unregister(manifest.name)
    states[manifest.name] = .failed(phase: phase, reason: "\(error)")
    guard manifest.isOptional else {
      if let kernelError = error as? KernelError, case .unresolvedType = kernelError {
        throw kernelError
      }
      throw .hookFailed(module: manifest.name, phase: phase, cause: error)
    }
  }

  private func skip(_ name: String, phase: LifecyclePhase, reason: String) {
    unregister(name)
    states[name] = .skipped(reason: reason)
    report(name, phase, .skipped(reason), .zero)
  }

  /// Why a module cannot go ahead: the first dependency that is failed, skipped or absent.
  private func blockingReason(_ manifest: ModuleManifest) -> String? {
    for dependency in manifest.dependencies {
      switch states[dependency] {
      case .failed?: return "dependency '\(dependency)' failed"
      case .skipped?: return "dependency '\(dependency)' was skipped"
      case .stopped?, nil: return "dependency '\(dependency)' is not running"
      case .planned?, .setUp?, .running?: continue
      }
    }
    return nil
  }

  /// Tears down what a failed boot started, in reverse, and removes every registration.
  private func rollBack() async {
    await tearDown(startOrder.reversed())
    unregister(order)
  }

  // MARK: Shutdown

  /// Tears every running module down in exact reverse of start order and removes what every
  /// module registered. Errors from `tearDown` are reported to the observer, never thrown.
  /// Calling it again does nothing.
  public func shutdown() async {
    guard phase == .running else { return }
    phase = .stopping
    await tearDown(startOrder.reversed())
    unregister(order)
    phase = .stopped
  }

  private func tearDown(_ names: some Sequence<String>) async {
    var stopped: Set<String> = []
    defer { startOrder.removeAll { stopped.contains($0) } }
    for name in names {
      guard let entry = loaded[name] else { continue }
      let began = clock.now
      do {
        try await Deadline.run(seconds: entry.manifest.startTimeout) {
          try await entry.module.tearDown(entry.context)
        }
        finished(name, .tearDown, since: began)
      } catch {
        report(name, .tearDown, .failed(error), clock.now - began)
      }
      states[name] = .stopped
      stopped.insert(name)
    }
  }

  private func unregister(_ name: String) {
    unregister([name])
  }

  /// Removes what the named modules registered, in one pass over each registry, so shutting
  /// down n modules costs O(n), not O(n²).
  private func unregister(_ names: some Sequence<String>) {
    let owners = Set(names.filter { loaded.removeValue(forKey: $0) != nil })
    guard !owners.isEmpty else { return }
    mediator.removeTargets(ownedBy: owners)
    events.removeAll(ownedBy: owners)
    container.removeAll(ownedBy: owners)
  }

  // MARK: Run-time changes

  /// Loads, sets up, starts and readies one more module while the application runs. Its
  /// dependencies must be running. On failure everything it registered is removed and the
  /// error is thrown; the rest of the application is untouched.
  public func add(_ manifest: ModuleManifest) async throws(KernelError) {
    guard phase == .running else {
      throw .wrongState(operation: "add a module", state: phase.rawValue)
    }
    guard states[manifest.name] == nil || states[manifest.name] == .stopped else {
      throw .duplicateModule(manifest.name)
    }
    for dependency in manifest.dependencies where states[dependency] != .running {
      throw .dependencyNotRunning(module: manifest.name, dependency: dependency)
    }
    var required = manifest
    required.isOptional = false  // report failures to the caller instead of marking them
    if !order.contains(manifest.name) { order.append(manifest.name) }
    states[manifest.name] = .planned
    do {
      try install(required, rank: nextRank)
      nextRank += 1
      try buildEagerSingletons()
      try await startAll([manifest.name])
    } catch {
      unregister(manifest.name)
      throw error
    }
    await readyAll([manifest.name])
  }

  /// Tears one running module down and removes everything it registered: its services,
  /// targets and event handlers. Refused while running modules depend on it.
  public func remove(_ name: String) async throws(KernelError) {
    guard phase == .running else {
      throw .wrongState(operation: "remove a module", state: phase.rawValue)
    }
    guard let state = states[name] else { throw .unknownModule(name) }
    let dependents = order.filter { other in
      states[other] == .running && (loaded[other]?.manifest.dependencies.contains(name) ?? false)
    }
    guard dependents.isEmpty else { throw .moduleInUse(module: name, dependents: dependents) }
    if state == .running { await tearDown([name]) }
    unregister(name)
    states[name] = .stopped
  }

  // MARK: Reporting

  private func finished(
    _ name: String, _ phase: LifecyclePhase, since began: ContinuousClock.Instant
  ) {
    report(name, phase, .succeeded, clock.now - began)
  }

  private func report(
    _ name: String, _ phase: LifecyclePhase, _ outcome: LifecycleRecord.Outcome,
    _ duration: Duration, at instant: ContinuousClock.Instant? = nil
  ) {
    if phase != .load {  // the profiler times hooks; `load` only finds the type
      switch outcome {
      case .succeeded, .failed: profiler.record(subject: name, phase: phase, duration: duration)
      case .skipped: break
      }
    }
    guard let observer else { return }
    let elapsed = bootedAt.map { (instant ?? clock.now) - $0 } ?? .zero
    observer(
      LifecycleRecord(
        module: name, phase: phase, outcome: outcome, duration: duration, elapsed: elapsed))
  }
}
