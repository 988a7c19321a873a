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
/// Changes happen one at a time: `boot`, `add`, `remove` and `shutdown` wait for the one in
/// progress, and a shutdown requested during `boot` or `add` stops it at the next step. Module
/// hooks run on threads outside the Swift concurrency pool, each bounded by the module's
/// `timeout`, and the kernel runs on an executor of its own, so hooks that block threads cannot
/// stop it from acting on time limits.
///
/// ```swift
/// let kernel = try Kernel(application: app, modules: modules)
/// try await kernel.boot()
/// let report = await kernel.events.post("note.saved", payload: ["id": "1"])
/// await kernel.shutdown()
/// ```
public actor Kernel {
  package nonisolated let application: ApplicationManifest
  package nonisolated let plan: BootPlan
  package nonisolated let catalog: TypeCatalog
  public nonisolated let container: Container
  public nonisolated let mediator: Mediator
  public nonisolated let events: EventBus
  package nonisolated let profiler: Profiler

  private nonisolated let executor = KernelExecutor()
  /// Where module hooks run: threads outside the Swift pool, added only when hooks block.
  private let hookExecutor: HookExecutor
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  private let observer: (@Sendable (LifecycleRecord) -> Void)?
  private let clock = ContinuousClock()
  private var bootedAt: ContinuousClock.Instant?
  private var phase = Phase.idle
  private var loaded: [String: Loaded] = [:]
  /// The manifest of each module added at run time, by name, kept while the kernel lists it,
  /// also when it failed (``manifest(of:)``).
  private var addedManifests: [String: ModuleManifest] = [:]
  private var states: ModuleTable
  /// Names in the order their `start` finished; teardown runs in reverse.
  private var startOrder: [String] = []
  /// Every planned or added module in boot order, which is also event dispatch order.
  private var order: [String]
  /// The level and priority of each module in `order`, at the same index, for placing modules
  /// added at run time.
  private var orderKeys: [(Int, Int)]
  /// Set by `shutdown()` at once, so a boot or add in progress stops at its next step.
  private let stopRequested = Locked(false)
  /// Whether a change is in progress, and the changes waiting for it, first come first served.
  private var busy = false
  private var waiting: [CheckedContinuation<Void, Never>] = []
  private var queueWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  /// ``BootCheck`` problems found at the start of `boot`, consumed as each module is set up.
  private var linkProblems: [String: [ManifestProblem]] = [:]
  /// Wake-ups in progress, shared by concurrent first triggers, and how many triggers joined
  /// each one after the first.
  private var waking: [String: Task<Result<Void, ActivationError>, Never>] = [:]
  private var joined: [String: Int] = [:]
  private var joinWatchers:
    [(name: String, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  /// Modules woken on first use; boot does not call their `ready` a second time.
  private var woken: Set<String> = []
  /// The background start of `background` modules, launched once boot has called `ready`.
  private var backgroundStart: Task<Void, Never>?
  /// Where dormant modules' wakes go; made with the first.
  private lazy var wakeRoute = Wake.Route(self, on: executor)

  private enum Phase: String { case idle, booting, running, stopping, stopped }

  /// A class, so the lists and closures of a boot share one copy instead of copying manifests.
  private final class Loaded: Sendable {
    let manifest: ModuleManifest
    let module: any Module
    let context: ModuleContext
    /// Whether the module's type has hooks (`Module.hasHooks`); without, none is called.
    var hasHooks: Bool { type(of: module).hasHooks }

    init(manifest: ModuleManifest, module: any Module, context: ModuleContext) {
      self.manifest = manifest
      self.module = module
      self.context = context
    }
  }

  /// Plans the given modules. `observer` sees every lifecycle step as it happens. `index` is
  /// the validator's for `modules` (``ManifestLoader/validateIndexing(application:modules:catalog:)``),
  /// which spares the plan looking up their names again.
  package init(
    application: ApplicationManifest,
    modules: [ModuleManifest],
    index: ModuleIndex? = nil,
    catalog: TypeCatalog = TypeCatalog(),
    observer: (@Sendable (LifecycleRecord) -> Void)? = nil
  ) throws(KernelError) {
    do {
      self.plan = try BootPlan(modules: modules, index: index)
    } catch {
      throw .plan(error)
    }
    self.application = application
    self.catalog = catalog
    self.profiler = Profiler()
    self.container = Container()
    self.mediator = Mediator(
      scheme: application.scheme, catalog: catalog, fallback: application.fallback)
    let hookExecutor = HookExecutor()
    self.hookExecutor = hookExecutor
    self.events = EventBus(profiler: profiler, executor: hookExecutor)
    self.observer = observer
    (self.order, self.orderKeys) = (plan.names, plan.orderKeys)
    self.states = ModuleTable(planned: plan.positions)
    events.rank(owners: plan.positions)  // the ranks of `order`
  }

  /// Every planned or added module with its state, in boot order; a removed module is not
  /// listed.
  package var moduleStates: [(name: String, state: ModuleState)] {
    order.compactMap { name in states[name].map { (name, $0) } }
  }

  /// The manifest of the module `name`, planned or added at run time, also once it failed; nil
  /// when the kernel lists no module of that name (none had it, or it was removed).
  package func manifest(of name: String) -> ModuleManifest? {
    guard states[name] != nil else { return nil }
    return addedManifests[name] ?? plan.positions[name].map { plan.modules[$0] }
  }

  /// The manifests of every planned module, then of every one added at run time (not planned)
  /// and not removed since.
  package var manifests: [ModuleManifest] {
    plan.modules + addedManifests.values.filter { plan.positions[$0.name] == nil }
  }

  /// The state of one module, or nil when no module has that name (or it was removed).
  package func state(of name: String) -> ModuleState? { states[name] }

  /// Names of running modules in the order they started.
  public var startedModules: [String] { startOrder }

  // MARK: One change at a time

  /// Waits until no other change is in progress; pair with ``endChange()``.
  ///
  /// Each continuation body below checks its condition again: entering
  /// `withCheckedContinuation` can suspend, so other kernel jobs may run between the check
  /// before it and its body. Here the change in progress may have ended meanwhile, and a
  /// continuation queued after that would wait for an `endChange()` that never comes
  /// (`markFailed` ending just as `shutdown()` began hung `apiary run`).
  private func beginChange() async {
    guard busy else {
      busy = true
      return
    }
    await withCheckedContinuation { continuation in
      guard busy else {
        busy = true
        continuation.resume()
        return
      }
      waiting.append(continuation)
      let count = waiting.count
      queueWatchers.removeAll { watcher in
        guard watcher.count <= count else { return false }
        watcher.continuation.resume()
        return true
      }
    }
  }

  /// Returns once at least `count` changes wait behind the one in progress. Tests use it to
  /// make a request arrive while another is in progress, without sleeping.
  package func queued(_ count: Int) async {
    guard waiting.count < count else { return }
    await withCheckedContinuation { continuation in
      // Checked again: see `beginChange()`.
      if waiting.count < count {
        queueWatchers.append((count, continuation))
      } else {
        continuation.resume()
      }
    }
  }

  /// Hands the kernel to the next waiting change, in arrival order.
  private func endChange() {
    if waiting.isEmpty {
      busy = false
    } else {
      waiting.removeFirst().resume()
    }
  }

  private var stopping: Bool { stopRequested.withLock { $0 } }

  /// The state named in ``ErrorCode/wrongState``.
  private var stateName: String {
    stopping && phase != .stopped ? Phase.stopping.rawValue : phase.rawValue
  }

  /// Throws when a shutdown was requested while `operation` was in progress.
  private func checkStop(_ operation: String) throws(KernelError) {
    if stopping { throw .interrupted(operation: operation) }
  }

  // MARK: Boot

  /// Sets up, starts and readies every planned module.
  ///
  /// A required module that fails fails the boot: modules already started are torn down in
  /// reverse and the error names the module, the phase and the cause. An optional module that
  /// fails is marked failed, and modules that depend on it are skipped. A `shutdown()` requested
  /// meanwhile stops the boot after the hook in progress, tears down what started, and `boot`
  /// throws ``ErrorCode/interrupted``.
  public func boot() async throws(KernelError) {
    await beginChange()
    defer { endChange() }
    guard phase == .idle, !stopping else {
      throw .wrongState(operation: "boot", state: stateName)
    }
    phase = .booting
    bootedAt = clock.now
    do {
      // No module code runs before `setUpAll`, so no type is registered meanwhile.
      var memo = CatalogMemo(catalog)
      let (eager, sleepers, background, services) = try link(&memo)
      container.reserveCapacity(services)
      try registerDormant(sleepers, memo: &memo)
      try await setUpAll(eager)
      try buildEagerSingletons()
      try checkStop("boot")
      try await startAll(eager.map(\.name))
      try checkStop("boot")
      try await readyAll(woken.isEmpty ? startOrder : startOrder.filter { !woken.contains($0) })
      try checkStop("boot")
      phase = .running
      startInBackground(background)
    } catch {
      await rollBack()
      phase = .stopped
      throw error
    }
  }

  /// Checks every planned module with ``BootCheck`` before any module code runs: problems of
  /// required modules fail the boot together; an optional module with problems fails alone
  /// when it is set up. In the same pass over the plan (last module first, as the plan finds
  /// which lazy modules stay dormant), splits it into the modules that start at boot and those
  /// that stay dormant, and names the `background` ones; every list is in plan order. Counts
  /// their services too: the placeholders and bindings about to be made.
  private func link(_ memo: inout CatalogMemo) throws(KernelError) -> (
    eager: [ModuleManifest], dormant: [Sleeper], background: [String], services: Int
  ) {
    var required: [[ManifestProblem]] = []
    var (eager, sleepers, background): ([ModuleManifest], [Sleeper], [String]) = ([], [], [])
    var services = 0
    eager.reserveCapacity(plan.modules.count)
    sleepers.reserveCapacity(plan.modules.count)
    // The plan's modules have the slots of their places in the plan (see `ModuleTable`).
    plan.walkBackwards { manifest, position, isDormant in
      if isDormant { sleepers.append((manifest, position)) } else { eager.append(manifest) }
      services += manifest.services.count
      if manifest.activation == .background { background.append(manifest.name) }
      let problems = BootCheck.problems(manifest, memo: &memo)
      guard !problems.isEmpty else { return }
      linkProblems[manifest.name] = problems
      if !manifest.isOptional { required.append(problems) }
    }
    if !required.isEmpty { throw .invalidManifests(required.reversed().flatMap { $0 }) }
    // Reversed in place: moves, no reference counting, so no module is touched again.
    eager.reverse()
    sleepers.reverse()
    background.reverse()
    return (eager, sleepers, background, services)
  }

  /// The ``BootCheck`` problems of a module about to be set up or put to sleep: during boot,
  /// those ``link(_:)`` found; afterwards (a module added at run time), checked now.
  private func takeLinkProblems(_ manifest: ModuleManifest) -> [ManifestProblem] {
    guard phase == .booting else { return BootCheck.problems(manifest, catalog: catalog) }
    return linkProblems.isEmpty ? [] : linkProblems.removeValue(forKey: manifest.name) ?? []
  }

  /// Creates each module, then, on a hook lane, binds its manifest services and targets and runs
  /// `setUp`, bounded by its timeout. A module whose dependency failed is skipped.
  private func setUpAll(_ modules: [ModuleManifest]) async throws(KernelError) {
    var entries: [Loaded] = []
    var hooks: [Hook] = []
    let unavailable = Locked<[String: String]>([:])  // name: "failed" or "was skipped"
    let mediator = self.mediator
    let catalog = self.catalog
    for manifest in modules {
      if let reason = blockingReason(manifest) {
        skip(manifest.name, phase: .setUp, reason: reason)
        unavailable.withLock { $0[manifest.name] = "was skipped" }
        continue
      }
      let problems = takeLinkProblems(manifest)
      if !problems.isEmpty {
        try fail(manifest, phase: .load, error: KernelError.invalidManifests(problems))
        unavailable.withLock { $0[manifest.name] = "failed" }
        continue
      }
      guard let type = catalog.moduleType(named: manifest.type) else {
        let error = KernelError.unresolvedType(
          module: manifest.name, type: manifest.type,
          foundButNotModule: catalog.lookup(manifest.type) != nil)
        try fail(manifest, phase: .load, error: error)
        unavailable.withLock { $0[manifest.name] = "failed" }
        continue
      }
      let context = makeContext(manifest)
      let entry = Loaded(manifest: manifest, module: type.init(), context: context)
      loaded[manifest.name] = entry
      entries.append(entry)
      let (dependencies, hasHooks) = (manifest.dependencies, type.hasHooks)
      let prepare: @Sendable () async throws -> Void = {
        let blocked = unavailable.withLock { known in
          dependencies.first { known[$0] != nil }.map { ($0, known[$0] ?? "") }
        }
        if let (name, what) = blocked { throw Blocked(reason: "dependency '\(name)' \(what)") }
      }
      hooks.append(
        Hook(
          seconds: manifest.startTimeout, prepare: dependencies.isEmpty ? nil : prepare,
          body: {
            let manifest = entry.manifest
            for service in manifest.services {
              try entry.context.container.bind(service, catalog: catalog)
            }
            try mediator.addTargets(manifest.targets, owner: manifest.name, context: entry.context)
            if hasHooks { try entry.module.setUp(entry.context) }
          }))
    }
    let stopRequested = self.stopRequested
    let outcomes = await HookLane.run(hooks, on: hookExecutor) { [entries] index, outcome in
      guard case .failure(let error) = outcome.result else {
        return !stopRequested.withLock { $0 }
      }
      let manifest = entries[index].manifest
      unavailable.withLock { $0[manifest.name] = error is Blocked ? "was skipped" : "failed" }
      return (manifest.isOptional || error is Blocked) && !stopRequested.withLock { $0 }
    }
    for (entry, outcome) in zip(entries, outcomes) {
      let name = entry.manifest.name
      switch outcome.result {
      case .success:
        report(name, .setUp, .succeeded, outcome.duration, at: outcome.finishedAt)
        states[name] = .setUp
      case .failure(let blocked as Blocked):
        skip(name, phase: .setUp, reason: blocked.reason)
      case .failure(let error):
        report(name, .setUp, .failed(error), outcome.duration, at: outcome.finishedAt)
        try fail(entry.manifest, phase: .setUp, error: error, reported: true)
      }
    }
  }

  /// The context `manifest`'s module runs with. A module `woken` from dormant replaces the
  /// placeholder of each of its activation events with its own first subscription to it.
  private func makeContext(_ manifest: ModuleManifest, woken: Bool = false) -> ModuleContext {
    ModuleContext(
      manifest: manifest, application: application,
      container: container.owned(by: manifest.name), mediator: mediator.owned(by: manifest.name),
      events: events.owned(
        by: manifest.name, seconds: manifest.startTimeout,
        replacing: woken ? manifest.activationEvents : []))
  }

  private func buildEagerSingletons() throws(KernelError) {
    do {
      try container.buildEagerSingletons()
    } catch {
      throw .hookFailed(module: "container", phase: .setUp, cause: error)
    }
  }

  /// Starts `names` (in plan order) on hook lanes: sync modules one at a time, each `async`
  /// module on a lane of its own once its dependencies have started. Start order is the order
  /// in which `start` finished, so a module always comes after its dependencies.
  private func startAll(_ names: [String]) async throws(KernelError) {
    var entries: [Loaded] = []
    for name in names where states[name] == .setUp {
      guard let entry = loaded[name] else { continue }
      if let reason = blockingReason(entry.manifest) {
        skip(name, phase: .start, reason: reason)
      } else {
        entries.append(entry)
      }
    }
    let board = StartBoard(entries.map(\.manifest.name))
    let hooks = entries.indices.map { position in
      Self.startHook(entries[position], at: position, board: board, on: hookExecutor)
    }
    let stopRequested = self.stopRequested
    let ran = await HookLane.run(hooks, on: hookExecutor) { [entries] index, outcome in
      let manifest = entries[index].manifest
      if !manifest.isAsync {
        board.settle(index, outcome)
        if case .failure(let error) = outcome.result, !(error is Blocked), !manifest.isOptional {
          return false
        }
      }
      return !stopRequested.withLock { $0 }
    }
    // Modules whose turn never came did not start; async ones already launched are awaited.
    for position in entries.indices.dropFirst(ran.count) { board.settle(position, nil) }
    let (outcomes, finished) = await board.all()
    var firstFailure: KernelError?
    for (entry, outcome) in zip(entries, outcomes) {
      guard let outcome else { continue }
      if let failure = record(outcome, for: entry.manifest), firstFailure == nil {
        firstFailure = failure
      }
    }
    startOrder.append(contentsOf: finished)
    if let firstFailure { throw firstFailure }
  }

  /// The hook that starts `entry`, at `position` on `board`, once its dependencies on `board`
  /// have started. For an `async` module, a hook that launches the start on a lane of its own
  /// and returns at once.
  private static func startHook(
    _ entry: Loaded, at position: Int, board: StartBoard, on executor: HookExecutor
  ) -> Hook {
    let waitsFor = entry.manifest.dependencies.compactMap { name in
      board.position(of: name).map { (name, $0) }
    }
    let prepare: @Sendable () async throws -> Void = {
      for (dependency, position) in waitsFor where await !board.started(position) {
        throw Blocked(reason: "dependency '\(dependency)' did not start")
      }
    }
    var start = Hook(
      seconds: entry.manifest.startTimeout, prepare: waitsFor.isEmpty ? nil : prepare, body: nil)
    if entry.hasHooks { start.body = { try await entry.module.start(entry.context) } }
    guard entry.manifest.isAsync else { return start }
    return Hook(seconds: nil) { [start] in
      HookLane.launch([start], on: executor) { _, outcome in
        board.settle(position, outcome)
        return true
      } done: {
      }
    }
  }

  /// Applies a start outcome; returns the error when it fails the boot.
  private func record(_ outcome: HookOutcome, for manifest: ModuleManifest) -> KernelError? {
    switch outcome.result {
    case .success:
      states[manifest.name] = .running
      report(manifest.name, .start, .succeeded, outcome.duration, at: outcome.finishedAt)
      return nil
    case .failure(let blocked as Blocked):
      skip(manifest.name, phase: .start, reason: blocked.reason)
      return nil
    case .failure(let error):
      report(manifest.name, .start, .failed(error), outcome.duration, at: outcome.finishedAt)
      do {
        try fail(manifest, phase: .start, error: error, reported: true)
        return nil
      } catch {
        return error
      }
    }
  }

  /// Calls `ready` on `names` in start order. A required module whose `ready` throws or times
  /// out fails the boot; an optional one is torn down and marked failed, and modules that
  /// depend on it are torn down and skipped, so nothing runs without its dependencies.
  private func readyAll(_ names: [String]) async throws(KernelError) {
    let entries = names.compactMap { loaded[$0] }
    let failed = Locked<Set<String>>([])
    let hooks = entries.map { entry in
      let dependencies = entry.manifest.dependencies
      let prepare: @Sendable () async throws -> Void = {
        let blocked = failed.withLock { failed in dependencies.first(where: failed.contains) }
        if let blocked { throw Blocked(reason: "dependency '\(blocked)' failed in ready") }
      }
      var ready = Hook(
        seconds: entry.manifest.startTimeout, prepare: dependencies.isEmpty ? nil : prepare,
        body: nil)
      if entry.hasHooks { ready.body = { try await entry.module.ready(entry.context) } }
      return ready
    }
    let stopRequested = self.stopRequested
    let outcomes = await HookLane.run(hooks, on: hookExecutor) { index, outcome in
      guard case .failure(let error) = outcome.result else {
        return !stopRequested.withLock { $0 }
      }
      let manifest = entries[index].manifest
      _ = failed.withLock { $0.insert(manifest.name) }
      return (manifest.isOptional || error is Blocked) && !stopRequested.withLock { $0 }
    }
    var dropped: [String: ModuleState] = [:]
    for (entry, outcome) in zip(entries, outcomes) {
      let manifest = entry.manifest
      switch outcome.result {
      case .success:
        report(manifest.name, .ready, .succeeded, outcome.duration, at: outcome.finishedAt)
      case .failure(let blocked as Blocked):
        report(manifest.name, .ready, .skipped(blocked.reason), .zero)
        dropped[manifest.name] = .skipped(reason: blocked.reason)
      case .failure(let error):
        report(manifest.name, .ready, .failed(error), outcome.duration, at: outcome.finishedAt)
        guard manifest.isOptional else {
          throw .hookFailed(module: manifest.name, phase: .ready, cause: error)
        }
        dropped[manifest.name] = .failed(phase: .ready, reason: "\(error)")
      }
    }
    guard !dropped.isEmpty else { return }
    await tearDownAll(startOrder.reversed().filter { dropped[$0] != nil })
    unregister(dropped.keys)
    for (name, state) in dropped { states[name] = state }
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
      if let kernelError = error as? KernelError, kernelError.code == .unresolvedType {
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
    // During boot every dependency is a planned module, in the table: while none is failed,
    // skipped or stopped, none blocks, and no name need be looked up.
    if phase == .booting, states.unavailable == 0 { return nil }
    for dependency in manifest.dependencies {
      switch states[dependency] {
      case .failed?, .failedWhileRunning?: return "dependency '\(dependency)' failed"
      case .skipped?: return "dependency '\(dependency)' was skipped"
      case .stopped?, nil: return "dependency '\(dependency)' is not running"
      case .planned?, .setUp?, .running?, .dormant?: continue
      }
    }
    return nil
  }

  /// Tears down what a failed boot started, in reverse, and removes every registration.
  private func rollBack() async {
    await tearDownAll(startOrder.reversed())
    unregister(order)
  }

  // MARK: Shutdown

  /// Tears every running module down in exact reverse of start order and removes what every
  /// module registered. Errors from `tearDown` are reported to the observer, never thrown.
  ///
  /// A boot or add in progress is stopped after the hook it is running, and its started modules
  /// are torn down too; a remove in progress finishes first. Returns when everything is torn
  /// down. Later calls, and `boot`, `add` and `remove` afterwards, do nothing or are refused.
  public func shutdown() async {
    stopRequested.withLock { $0 = true }
    backgroundStart?.cancel()
    await beginChange()
    defer { endChange() }
    switch phase {
    case .idle:
      phase = .stopped
    case .running:
      phase = .stopping
      await tearDownAll(startOrder.reversed())
      unregister(order)
      phase = .stopped
    case .booting, .stopping, .stopped:
      break
    }
  }

  /// Runs `tearDown` of each named module, in the order given, and marks it stopped; returns
  /// what each `tearDown` that failed threw, by module.
  @discardableResult
  private func tearDownAll(_ names: [String]) async -> [String: any Error] {
    var failures: [String: any Error] = [:]
    let entries = names.compactMap { loaded[$0] }
    let hooks = entries.map { entry in
      Hook(seconds: entry.manifest.startTimeout) {
        try await entry.module.tearDown(entry.context)
      }
    }
    let outcomes = await HookLane.run(hooks, on: hookExecutor)
    for (entry, outcome) in zip(entries, outcomes) {
      switch outcome.result {
      case .success:
        report(entry.manifest.name, .tearDown, .succeeded, outcome.duration, at: outcome.finishedAt)
      case .failure(let error):
        report(
          entry.manifest.name, .tearDown, .failed(error), outcome.duration, at: outcome.finishedAt)
        failures[entry.manifest.name] = error
      }
      states[entry.manifest.name] = .stopped
    }
    let stopped = Set(entries.map(\.manifest.name))
    startOrder.removeAll { stopped.contains($0) }
    return failures
  }

  private func unregister(_ name: String) {
    unregister([name])
  }

  /// Removes what the named modules registered, in one pass over each registry, so shutting
  /// down n modules costs O(n), not O(n²). Names no longer loaded are included: a hook abandoned
  /// after its time limit may have registered something since.
  private func unregister(_ names: some Sequence<String>) {
    let owners = Set(names)
    for name in owners { loaded[name] = nil }
    mediator.removeAll(ownedBy: owners)
    events.removeAll(ownedBy: owners)
    container.removeAll(ownedBy: owners)
  }

  // MARK: Run-time changes

  /// Loads, sets up, starts and readies one more module while the application runs. Its
  /// dependencies must be running; it takes its place in boot and event order by level and
  /// priority, after its dependencies. On failure everything it registered is removed, it is
  /// torn down if it started, the error is thrown, and the name can be added again; the rest of
  /// the application is untouched. Refused once a shutdown has been requested.
  package func add(_ manifest: ModuleManifest) async throws(KernelError) {
    do {
      try await add([manifest])
    } catch {
      throw error.cause
    }
  }

  /// Adds `manifests`, in the order given, as `add(_:)` adds one, in one
  /// change: all of them or none. When one fails, those added before it are torn down and
  /// removed again, last first, before any other change runs; background modules start once
  /// all are in.
  ///
  /// ```swift
  /// try await kernel.add([store, notes])  // notes depends on store
  /// ```
  package func add(_ manifests: [ModuleManifest]) async throws(AddFailure) {
    func refused() -> AddFailure {
      AddFailure(
        module: manifests.first?.name ?? "",
        cause: .wrongState(operation: "add a module", state: stateName), withdrawn: [])
    }
    guard !stopping else { throw refused() }
    await beginChange()
    defer { endChange() }
    guard phase == .running, !stopping else { throw refused() }
    var added: [String] = []
    for manifest in manifests {
      do {
        try await addOne(manifest)
      } catch {
        for name in added.reversed() { await takeOut(name) }
        throw AddFailure(module: manifest.name, cause: error, withdrawn: added)
      }
      added.append(manifest.name)
    }
    startInBackground(added)
  }

  /// One module of `add(_:)` with a list, inside its change.
  private func addOne(_ manifest: ModuleManifest) async throws(KernelError) {
    switch states[manifest.name] {
    case nil, .stopped?, .failed?, .failedWhileRunning?, .skipped?: break
    case .planned?, .setUp?, .running?, .dormant?: throw .duplicateModule(manifest.name)
    }
    for dependency in manifest.dependencies
    where states[dependency] != .running && states[dependency] != .dormant {
      throw .dependencyNotRunning(module: manifest.name, dependency: dependency)
    }
    addedManifests[manifest.name] = manifest
    var required = manifest
    required.isOptional = false  // report failures to the caller instead of marking them
    place(required)
    states[manifest.name] = .planned
    do {
      if manifest.isLazy {
        var memo = CatalogMemo(catalog)
        try registerDormant([(required, states.slot(for: manifest.name))], memo: &memo)
        return
      }
      try await wakeDependencies(of: required)
      try await setUpAll([required])
      try buildEagerSingletons()
      try checkStop("add a module")
      try await startAll([manifest.name])
      try checkStop("add a module")
      try await readyAll([manifest.name])
    } catch {
      if startOrder.contains(manifest.name) { await tearDownAll([manifest.name]) }
      unregister(manifest.name)
      forget(manifest.name)
      throw error
    }
  }

  /// Puts an added module into `order`, after its dependencies, before the first later module
  /// that comes after it by level and priority; event dispatch follows.
  private func place(_ manifest: ModuleManifest) {
    removeFromOrder(manifest.name)
    let key = BootPlan.orderKey(manifest)
    let earliest = manifest.dependencies.compactMap(order.firstIndex(of:)).max().map { $0 + 1 } ?? 0
    let index = orderKeys[earliest...].firstIndex { key < $0 } ?? order.endIndex
    order.insert(manifest.name, at: index)
    orderKeys.insert(key, at: index)
    events.rank(order)
  }

  /// Takes `name` (listed once at most) and its key out of `order` and `orderKeys`.
  private func removeFromOrder(_ name: String) {
    guard let index = order.firstIndex(of: name) else { return }
    order.remove(at: index)
    orderKeys.remove(at: index)
  }

  /// Tears one running module down and removes everything it registered: its services,
  /// targets, event handlers and interceptors. Refused while running or dormant modules depend
  /// on it. A module that failed or was skipped is removed the same way. A removed module is
  /// forgotten: ``moduleStates`` no longer lists it, ``state(of:)`` and ``manifest(of:)`` are
  /// nil, removing or restarting it again throws ``ErrorCode/unknownModule``, and `add` can add
  /// the name again. Returns what its `tearDown` threw when that failed (the module is removed
  /// all the same).
  @discardableResult
  package func remove(_ name: String) async throws(KernelError) -> (any Error)? {
    await beginChange()
    defer { endChange() }
    guard phase == .running, !stopping else {
      throw .wrongState(operation: "remove a module", state: stateName)
    }
    guard let state = states[name] else { throw .unknownModule(name) }
    let dependents = order.filter { other in
      states[other] == .running && (loaded[other]?.manifest.dependencies.contains(name) ?? false)
    }
    // A module that already failed or stopped leaves its dormant dependents no worse off, so
    // `:restart` of a failed child can remove and add it again.
    let inService = state == .running || state == .dormant
    let dormant = order.filter { other in
      inService && (states[wake: other]?.manifest.dependencies.contains(name) ?? false)
    }
    guard dependents.isEmpty, dormant.isEmpty else {
      throw .moduleInUse(module: name, dependents: dependents, dormant: dormant)
    }
    return await takeOut(name)
  }

  /// Sets up, starts and readies again a module that failed (its child process ended for good,
  /// or an earlier restart failed), in one change: what it left registered is removed and it is
  /// added anew, as by `add(_:)`. When that fails, the module stays listed as failed, so it can
  /// be restarted once fixed, and the error is thrown. A module that has not failed is refused
  /// (``ErrorCode/wrongState``, naming its state and what to do instead).
  package func restart(_ manifest: ModuleManifest) async throws(KernelError) {
    await beginChange()
    defer { endChange() }
    guard phase == .running, !stopping else {
      throw .wrongState(operation: "restart a module", state: stateName)
    }
    switch states[manifest.name] {
    case .failed?, .failedWhileRunning?: break
    case nil: throw .unknownModule(manifest.name)
    case let state?: throw .notFailed(module: manifest.name, state: state)
    }
    await takeOut(manifest.name)
    do {
      try await addOne(manifest)
    } catch {
      place(manifest)
      addedManifests[manifest.name] = manifest
      states[manifest.name] = .failed(phase: Self.phase(of: error), reason: Self.reason(of: error))
      throw error
    }
    startInBackground([manifest.name])
  }

  /// Tears `name` down if it runs, removes everything it registered and forgets it. Returns
  /// what its `tearDown` threw, if it failed.
  @discardableResult
  private func takeOut(_ name: String) async -> (any Error)? {
    let failure = states[name] == .running ? await tearDownAll([name])[name] : nil
    unregister(name)
    states[wake: name] = nil  // a dormant module is removed with its placeholders, never woken
    forget(name)
    return failure
  }

  /// Drops `name` from the modules the kernel lists: its state, its place in boot and event
  /// order, and the manifest it was added with.
  private func forget(_ name: String) {
    states[name] = nil
    removeFromOrder(name)
    addedManifests[name] = nil
  }

  /// Marks a running module failed while the application runs (its child process ended for
  /// good): its running dependents, then the module, are torn down in reverse start order and
  /// what they registered is removed; the module becomes failed while running and its
  /// dependents skipped. The other modules run on. Does nothing unless the module is running.
  package func markFailed(_ name: String, reason: String) async {
    await beginChange()
    defer { endChange() }
    guard phase == .running, !stopping, states[name] == .running else { return }
    var failed: Set<String> = [name]
    for other in order where !failed.contains(other) && states[other] == .running {
      if loaded[other]?.manifest.dependencies.contains(where: failed.contains) == true {
        failed.insert(other)
      }
    }
    await tearDownAll(startOrder.filter(failed.contains).reversed())
    unregister(failed)
    for other in failed { states[other] = .skipped(reason: "dependency '\(name)' failed") }
    states[name] = .failedWhileRunning(reason: reason)
  }

  // MARK: Lazy activation

  /// Puts lazy modules to sleep: binds a placeholder for each declared service, adds each
  /// declared target with a maker that wakes the module first, and subscribes a placeholder to
  /// each activation event (all of them at once, in boot order), all owned by the module;
  /// no module code runs. A module that does not link fails here, as it would in `setUp`.
  private func registerDormant(_ modules: [Sleeper], memo: inout CatalogMemo)
    throws(KernelError)
  {
    var placeholders = EventPlaceholders()
    placeholders.reserveCapacity(modules.count)  // a module mostly wakes on one event, if any
    defer { events.subscribePlaceholders(placeholders) }
    // `modules` come in `order`'s order, so one walk along it finds each one's dispatch rank.
    var rank = order.startIndex
    let route = wakeRoute
    for (manifest, slot) in modules {
      rank = Self.place(of: manifest.name, in: order, from: rank)
      let problems = takeLinkProblems(manifest)
      if !problems.isEmpty {
        try fail(manifest, phase: .load, error: KernelError.invalidManifests(problems))
        continue
      }
      guard let type = memo.module(manifest.type) else {
        let error = KernelError.unresolvedType(
          module: manifest.name, type: manifest.type,
          foundButNotModule: catalog.lookup(manifest.type) != nil)
        try fail(manifest, phase: .load, error: error)
        continue
      }
      try sleep(
        manifest, slot: slot, hasHooks: type.hasHooks, rank: rank, route: route, memo: &memo,
        events: &placeholders)
    }
  }

  /// Where `name` is in `order` (its event dispatch rank, see ``EventBus/rank(_:)``), looked
  /// for from `start` on, then from the beginning.
  private static func place(of name: String, in order: [String], from start: Int) -> Int {
    order[start...].firstIndex(of: name) ?? order.firstIndex(of: name) ?? order.endIndex
  }

  /// A lazy module about to be put to sleep, and its slot in `states` (``ModuleTable/slot(for:)``).
  private typealias Sleeper = (manifest: ModuleManifest, slot: Int)

  /// Activation-event placeholders of modules going to sleep, in boot order: each module's
  /// ``Wake``, once for each of its activation events.
  private typealias EventPlaceholders = [(
    event: String, owner: String, rank: Int, placeholder: any EventPlaceholder
  )]

  /// Registers one lazy module's placeholders and marks it dormant; its activation events'
  /// placeholders go to `pending`, at its dispatch `rank`, for the caller to subscribe. Its
  /// context is made when it wakes, so a module that never wakes costs its placeholders and
  /// nothing else. A module without hooks (`hasHooks`) can wake on the trigger's own thread.
  private func sleep(
    _ manifest: ModuleManifest, slot: Int, hasHooks: Bool, rank: Int, route: Wake.Route,
    memo: inout CatalogMemo, events pending: inout EventPlaceholders
  ) throws(KernelError) {
    let name = manifest.name
    let wake = Wake(manifest, route: route, atOnce: !hasHooks)
    do {
      let services = manifest.services
      if !services.isEmpty {
        let owned = container.owned(by: name)
        // By index, so no service is copied out of the list.
        for index in services.indices {
          let link = memo.link(
            protocolName: services[index].protocolName,
            implementation: services[index].implementation)
          if case .linked(let protocolType) = link {
            try owned.bindPlaceholder(services, at: index, checkedAs: protocolType, wake: wake)
          } else {  // fails as binding it would
            try owned.bindPlaceholder(services[index], catalog: catalog, wake: wake)
          }
        }
      }
      for target in manifest.targets {
        try mediator.addTargets(
          [target], owner: name, moduleType: manifest.type,
          maker: WakingTargetMaker(wake: wake, target: target.name))
      }
    } catch {
      try fail(manifest, phase: .load, error: error)
      return
    }
    for event in manifest.activationEvents { pending.append((event, name, rank, wake)) }
    states.sleep(at: slot, wake)
  }

  /// Puts a required module that failed to wake back to sleep, so a later trigger tries again.
  private func sleepAgain(_ manifest: ModuleManifest, hasHooks: Bool) {
    var memo = CatalogMemo(catalog)
    var placeholders = EventPlaceholders()
    let rank = Self.place(of: manifest.name, in: order, from: 0)
    try? sleep(
      manifest, slot: states.slot(for: manifest.name), hasHooks: hasHooks, rank: rank,
      route: wakeRoute, memo: &memo, events: &placeholders)
    events.subscribePlaceholders(placeholders)
  }

  /// Wakes a dormant module now — its dormant dependencies first — as its first trigger would,
  /// and returns once it runs; returns at once when it already runs.
  ///
  /// ```swift
  /// try await kernel.activate("search")
  /// await kernel.state(of: "search")  // .running
  /// ```
  package func activate(_ name: String) async throws(ActivationError) {
    try await activate(name, trigger: .request, nested: HookLane.isRunning)
  }

  /// Wakes `name`, or joins the wake-up in progress. `nested` is true when the trigger comes
  /// from a module hook, which the change in progress (if any) is waiting for: the wake-up then
  /// runs inside that change instead of queueing behind it.
  func activate(_ name: String, trigger: ActivationTrigger, nested: Bool)
    async throws(ActivationError)
  {
    if let inProgress = waking[name] {
      let count = joined[name, default: 0] + 1
      joined[name] = count
      joinWatchers.removeAll { watcher in
        guard watcher.name == name, watcher.count <= count else { return false }
        watcher.continuation.resume()
        return true
      }
      try await inProgress.value.get()
      return
    }
    guard states[wake: name] != nil else {
      if states[name] == .running { return }
      throw ActivationError(
        module: name, phase: .load, trigger: trigger,
        cause: states[name].map {
          KernelError.wrongState(operation: "wake '\(name)'", state: "\($0)")
        }
          ?? KernelError.unknownModule(name))
    }
    // On the kernel's executor, not Swift's pool: a synchronous trigger may be blocking a pool
    // thread while it waits, and the kernel's nonisolated steps (hook lanes) must not need one;
    // and stepping out of the actor and back needs no other thread.
    let task = Task(executorPreference: executor) {
      await self.wake(name, trigger: trigger, nested: nested)
    }
    waking[name] = task
    let result = await task.value
    waking[name] = nil
    joined[name] = nil
    try result.get()
  }

  /// Returns once at least `count` more triggers have joined the wake-up of `name` in progress.
  /// Tests use it to make first triggers race without sleeping.
  package func joined(_ name: String, _ count: Int) async {
    guard joined[name, default: 0] < count else { return }
    await withCheckedContinuation { continuation in
      // Checked again: see `beginChange()`.
      if joined[name, default: 0] < count {
        joinWatchers.append((name, count, continuation))
      } else {
        continuation.resume()
      }
    }
  }

  /// One wake-up, as one change: dependencies, then `setUp`, `start` and `ready`. A required
  /// module that fails goes back to sleep, so a later trigger tries again; an optional one is
  /// marked failed and what it registered is removed. Either way the trigger gets the error.
  private func wake(_ name: String, trigger: ActivationTrigger, nested: Bool) async -> Result<
    Void, ActivationError
  > {
    if !nested { await beginChange() }
    defer { if !nested { endChange() } }
    func failure(_ phase: LifecyclePhase, _ cause: any Error) -> Result<Void, ActivationError> {
      .failure(ActivationError(module: name, phase: phase, trigger: trigger, cause: cause))
    }
    guard phase == .running || (nested && phase == .booting), !stopping else {
      return failure(.load, KernelError.wrongState(operation: "wake '\(name)'", state: stateName))
    }
    guard let wake = states[wake: name] else {  // woken, failed or removed while this waited
      return states[name] == .running
        ? .success(())
        : failure(.load, KernelError.wrongState(operation: "wake '\(name)'", state: stateName))
    }
    let began = clock.now
    let manifest = wake.manifest
    do {
      try await wakeDependencies(of: manifest)
    } catch {
      // A dependency that failed, was skipped or removed will not come back: an optional module
      // fails for good; one that went back to sleep may wake at the next trigger.
      guard let reason = blockingReason(manifest) else { return failure(.load, error) }
      let cause = UnavailableDependency(reason: reason)
      report(name, .activate, .failed(cause), clock.now - began, trigger: trigger)
      if manifest.isOptional {
        states[wake: name] = nil
        unregister(name)
        states[name] = .failed(phase: .load, reason: "\(cause)")
      }
      return failure(.load, cause)
    }
    states[wake: name] = nil
    let context = makeContext(manifest, woken: true)
    do {
      try await runWakeHooks(manifest, context: context)
    } catch {
      if startOrder.contains(name) { await tearDownAll([name]) }
      unregister(name)
      let failedIn = Self.phase(of: error)
      let duration = clock.now - began
      report(name, .activate, .failed(error), duration, trigger: trigger)
      if manifest.isOptional {
        states[name] = .failed(phase: failedIn, reason: Self.reason(of: error))
      } else if stopping {
        states[name] = .stopped
      } else {
        let type = catalog.moduleType(named: manifest.type)
        sleepAgain(manifest, hasHooks: type?.hasHooks ?? true)
      }
      return failure(failedIn, Self.cause(of: error))
    }
    woken.insert(name)
    wake.markAwake(context)
    report(name, .activate, .succeeded, clock.now - began, trigger: trigger)
    return .success(())
  }

  /// A woken module's `setUp` (after binding its manifest services over their placeholders),
  /// `start` and `ready`, one after another on one hook lane, each bounded by the module's
  /// `timeout` and reported; the first failure, or a shutdown requested meanwhile, throws.
  private func runWakeHooks(_ manifest: ModuleManifest, context: ModuleContext)
    async throws(KernelError)
  {
    let name = manifest.name
    guard let type = catalog.moduleType(named: manifest.type) else {
      throw .unresolvedType(
        module: name, type: manifest.type,
        foundButNotModule: catalog.lookup(manifest.type) != nil)
    }
    guard type.hasHooks else { return try wakeWithoutHooks(manifest, type, context: context) }
    let entry = Loaded(manifest: manifest, module: type.init(), context: context)
    loaded[name] = entry
    let (catalog, container, seconds) = (self.catalog, self.container, manifest.startTimeout)
    let hooks = [
      Hook(seconds: seconds) {
        for service in manifest.services { try context.container.bind(service, catalog: catalog) }
        try entry.module.setUp(context)
      },
      Hook(seconds: seconds) {
        try container.buildEagerSingletons()
        try await entry.module.start(context)
      },
      Hook(seconds: seconds) { try await entry.module.ready(context) },
    ]
    let stopRequested = self.stopRequested
    let outcomes = await HookLane.run(hooks, on: hookExecutor) { index, outcome in
      guard case .success = outcome.result else { return false }
      return !stopRequested.withLock { $0 }
    }
    for (phase, outcome) in zip([LifecyclePhase.setUp, .start, .ready], outcomes) {
      guard case .failure(let error) = outcome.result else {
        report(name, phase, .succeeded, outcome.duration, at: outcome.finishedAt)
        states[name] = phase == .setUp ? .setUp : .running
        if phase == .start { startOrder.append(name) }
        continue
      }
      report(name, phase, .failed(error), outcome.duration, at: outcome.finishedAt)
      throw .hookFailed(module: name, phase: phase, cause: error)
    }
    if outcomes.count < hooks.count { throw .interrupted(operation: "wake '\(name)'") }
  }

  /// A module without hooks wakes on the kernel: its manifest services are bound over their
  /// placeholders, and `setUp`, `start` and `ready` are reported as done.
  private func wakeWithoutHooks(
    _ manifest: ModuleManifest, _ type: any Module.Type, context: ModuleContext
  ) throws(KernelError) {
    let name = manifest.name
    loaded[name] = Loaded(manifest: manifest, module: type.init(), context: context)
    let began = clock.now
    do {
      for service in manifest.services { try context.container.bind(service, catalog: catalog) }
    } catch {
      report(name, .setUp, .failed(error), clock.now - began)
      throw .hookFailed(module: name, phase: .setUp, cause: error)
    }
    for phase in [LifecyclePhase.setUp, .start, .ready] {
      report(name, phase, .succeeded, phase == .setUp ? clock.now - began : .zero)
    }
    states[name] = .running
    startOrder.append(name)
  }

  /// Wakes a dormant module without hooks on the calling thread, as a kernel step that holds
  /// the kernel's queue, when no change is in progress and its dependencies run: no thread
  /// hand-off. Nil when it cannot; the trigger then takes the usual way through the change queue.
  nonisolated func wakeAtOnce(_ name: String, trigger: ActivationTrigger) -> Result<
    Void, ActivationError
  >? {
    executor.sync { assumeIsolated { $0.wakeIfIdle(name, trigger: trigger) } }
  }

  private func wakeIfIdle(_ name: String, trigger: ActivationTrigger) -> Result<
    Void, ActivationError
  >? {
    guard !busy, phase == .running, !stopping, waking[name] == nil, let wake = states[wake: name],
      wake.manifest.dependencies.allSatisfy({ states[$0] == .running }),
      let type = catalog.moduleType(named: wake.manifest.type), !type.hasHooks
    else { return nil }
    let began = clock.now
    let manifest = wake.manifest
    states[wake: name] = nil
    let context = makeContext(manifest, woken: true)
    do {
      try wakeWithoutHooks(manifest, type, context: context)
    } catch {
      unregister(name)
      report(name, .activate, .failed(error), clock.now - began, trigger: trigger)
      if manifest.isOptional {
        states[name] = .failed(phase: Self.phase(of: error), reason: Self.reason(of: error))
      } else {
        sleepAgain(manifest, hasHooks: false)
      }
      return .failure(
        ActivationError(
          module: name, phase: Self.phase(of: error), trigger: trigger, cause: Self.cause(of: error)
        )
      )
    }
    woken.insert(name)
    wake.markAwake(context)
    report(name, .activate, .succeeded, clock.now - began, trigger: trigger)
    return .success(())
  }

  /// Wakes the dormant dependencies of `manifest`, in its order, inside the change in progress.
  private func wakeDependencies(of manifest: ModuleManifest) async throws(KernelError) {
    for dependency in manifest.dependencies where states[wake: dependency] != nil {
      do {
        try await activate(dependency, trigger: .dependency(of: manifest.name), nested: true)
      } catch {
        throw .hookFailed(module: error.module, phase: error.phase, cause: error)
      }
    }
    for dependency in manifest.dependencies where states[dependency] != .running {
      throw .dependencyNotRunning(module: manifest.name, dependency: dependency)
    }
  }

  /// The phase a wake-up failed in.
  private static func phase(of error: KernelError) -> LifecyclePhase {
    if case .hookFailed(_, let phase, _) = error.details { return phase }
    return .load
  }

  /// The error a hook threw, without the module and phase an ``ActivationError`` names already.
  private static func cause(of error: KernelError) -> any Error {
    error.hookError ?? error
  }

  /// Why a wake-up failed, without the module and phase its failed state names already.
  private static func reason(of error: KernelError) -> String {
    "\(cause(of: error))"
  }

  /// Wakes the `background` modules among `names`, one at a time, each as its own change, in
  /// a task of background priority: after `ready`, after everything else.
  private func startInBackground(_ names: [String]) {
    let names = names.filter { states[wake: $0]?.manifest.activation == .background }
    guard !names.isEmpty else { return }
    let previous = backgroundStart
    backgroundStart = Task(executorPreference: hookExecutor, priority: .background) {
      [weak self] in
      await previous?.value
      for name in names {
        guard let self, !Task.isCancelled else { return }
        try? await self.activate(name, trigger: .background, nested: false)
      }
    }
  }

  /// Returns once the background start of `background` modules has ended.
  package func backgroundStartEnded() async {
    await backgroundStart?.value
  }

  // MARK: Reporting

  private func report(
    _ name: String, _ phase: LifecyclePhase, _ outcome: LifecycleRecord.Outcome,
    _ duration: Duration, at instant: ContinuousClock.Instant? = nil,
    trigger: ActivationTrigger? = nil
  ) {
    if let trigger {  // a wake-up: its hooks are timed one by one, the wake-up with its trigger
      let succeeded = if case .succeeded = outcome { true } else { false }
      profiler.recordActivation(
        module: name, trigger: trigger.description, duration: duration, succeeded: succeeded)
    } else if phase != .load {  // the profiler times hooks; `load` only finds the type
      switch outcome {
      case .succeeded, .failed: profiler.record(subject: name, phase: phase, duration: duration)
      case .skipped: break
      }
    }
    guard let observer else { return }
    let elapsed = bootedAt.map { (instant ?? clock.now) - $0 } ?? .zero
    observer(
      LifecycleRecord(
        module: name, phase: phase, outcome: outcome, duration: duration, elapsed: elapsed,
        trigger: trigger?.description))
  }
}

/// A hook that did not run because a dependency is not there; the module is skipped.
private struct Blocked: Error {
  let reason: String
}
