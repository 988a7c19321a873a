import ApiaryManifest
import ApiarySupport
import Synchronization

/// Target-action calls between modules: `perform` for calls inside the process, `open` for
/// calls from outside by URL. Both end in the same dispatch but have separate policies: a URL
/// must use the application's scheme, reach an action declared `"remote": true`, and carry only
/// declared parameters, converted from text to the declared kinds.
///
/// Targets come from module manifests (the kernel adds them), are created lazily and
/// are cached only when a caller asks. A call that finds no target or action goes to the
/// target's ``ActionTarget/notFound(_:)`` handler, then to the application's fallback action, then
/// to a ``MediatorError``; never a silent nil.
///
/// ```swift
/// let note = try mediator.perform(target: "notes", action: "create", params: ["title": "Hi"])
/// let found = try await mediator.open("notebook://search/query?text=hello%20world&limit=5")
/// ```
///
/// `perform` and `open` each come in a synchronous form (for synchronous actions, with no
/// task hop) and an `async` form (for every action); in `async` code Swift picks the `async`
/// form, so write `try await`. All methods may be called from any thread or task concurrently.
public final class Mediator: Sendable {
  /// The URL scheme remote calls must use.
  package let scheme: String
  /// Where calls that find no target or action go after the target's not-found handler. It
  /// receives the parameters `target`, `action` and `params` (the original parameters), and
  /// the original call's origin as ``Parameters/origin``. Remote calls reach it only when its
  /// action is declared remote.
  package let fallback: ActionReference?
  private let catalog: TypeCatalog
  private let state: Locked<State>
  /// The module whose interceptors this view installs, or nil for the host.
  private let owner: String?

  private struct Installed: Sendable {
    let id: Int
    let owner: String?
    let scope: Interceptor.Scope
    let interceptor: Interceptor
    /// Set for a once-only interceptor: the first call to claim it runs it.
    let once: Once?
  }

  /// Claimed by exactly one call, however many race for it.
  private final class Once: Sendable {
    private let claimed = Atomic<Bool>(false)
    func claim() -> Bool { !claimed.exchange(true, ordering: .acquiringAndReleasing) }
  }

  private struct State: Sendable {
    /// By target, then action.
    var actions: [NamePair: PreparedAction] = [:]
    var targets: [String: TargetBox] = [:]
    /// Outermost scope first (global, target, action), installation order within a scope:
    /// the order `before`s run in.
    var interceptors: [Installed] = []
    var nextInterceptorID = 0
  }

  package init(scheme: String, catalog: TypeCatalog, fallback: ActionReference? = nil) {
    self.scheme = scheme
    self.catalog = catalog
    self.fallback = fallback
    self.state = Locked(State())
    self.owner = nil
  }

  private init(sharing mediator: Mediator, owner: String) {
    self.scheme = mediator.scheme
    self.catalog = mediator.catalog
    self.fallback = mediator.fallback
    self.state = mediator.state
    self.owner = owner
  }

  /// The same mediator, except that interceptors installed through it are owned by `owner` and
  /// removed with its targets by ``removeAll(ownedBy:)`` (each module's context holds one).
  package func owned(by owner: String) -> Mediator {
    Mediator(sharing: self, owner: owner)
  }

  /// Removes the targets and interceptors of several owners in one pass (a module unloaded).
  package func removeAll(ownedBy owners: Set<String>) {
    removeTargets(ownedBy: owners)
    state.withLock { state in
      state.interceptors.removeAll { $0.owner.map(owners.contains) ?? false }
    }
  }

  // MARK: Targets

  /// Adds a module's declared targets; each is created lazily by `maker`, which the kernel
  /// supplies with the module's context. Fails, adding nothing, when a type is unknown or cannot
  /// be made by `maker` (not a `Target`), a declared action is not implemented, a default does
  /// not fit its parameter, or a target name is taken.
  ///
  /// A target whose `type` is empty is found by convention: `NotesPlugin.NotesModule`'s target
  /// `notes` is `NotesPlugin.NotesTarget`.
  ///
  /// ```swift
  /// try mediator.addTargets(
  ///   manifest.targets, owner: manifest.name, moduleType: manifest.type, maker: maker)
  /// // …when the module is unloaded:
  /// mediator.removeTargets(ownedBy: manifest.name)
  /// ```
  package func addTargets(
    _ targets: [TargetManifest], owner: String, moduleType: String, maker: some TargetMaker
  ) throws(MediatorError) {
    var boxes: [TargetBox] = []
    var actions: [PreparedAction] = []
    for manifest in targets {
      let typeName =
        manifest.type.isEmpty
        ? Self.conventionalTypeName(manifest.name, moduleType: moduleType)
        : manifest.type
      guard let found = catalog.lookup(typeName, knownAs: KnownActionTarget.self) else {
        throw .typeNotFound(module: owner, target: manifest.name, type: typeName)
      }
      guard let targetType = found.known?.type ?? found.type as? any ActionTarget.Type else {
        throw .notATarget(module: owner, target: manifest.name, type: typeName)
      }
      let (box, prepared) = try Self.prepare(
        targetType, manifest: manifest, typeName: typeName, owner: owner, maker: maker,
        catalog: catalog)
      boxes.append(box)
      actions += prepared
    }
    let conflict = state.withLock { state -> MediatorError? in
      var names = Set<String>()
      for box in boxes {
        let name = box.manifest.name
        if let existing = state.targets[name] {
          return .duplicateTarget(module: owner, target: name, existingOwner: existing.owner)
        }
        guard names.insert(name).inserted else {
          return .duplicateTarget(module: owner, target: name, existingOwner: owner)
        }
      }
      for box in boxes { state.targets[box.manifest.name] = box }
      for action in actions {
        state.actions[NamePair(action.target, action.action)] = action
      }
      return nil
    }
    if let conflict { throw conflict }
  }

  /// Removes every target owned by `owner` and drops their cached instances; later calls take
  /// the not-found path. Calls already running finish normally.
  package func removeTargets(ownedBy owner: String) {
    removeTargets(ownedBy: [owner])
  }

  /// Removes the targets of several owners in one pass (the kernel's shutdown).
  package func removeTargets(ownedBy owners: Set<String>) {
    let removed = state.withLock { state in
      let removed = state.targets.values.filter { owners.contains($0.owner) }
      guard !removed.isEmpty else { return removed }
      let names = Set(removed.map(\.manifest.name))
      state.targets = state.targets.filter { !names.contains($0.key) }
      state.actions = state.actions.filter { !names.contains($0.key.first) }
      return removed
    }
    // Cached targets are released here, outside the lock, in case their deinit does work.
    for box in removed { _ = box.takeCached() }
  }

  /// Drops the cached instance of `target`, if any; the next cached call creates a new one.
  package func releaseCachedTarget(_ target: String) {
    let box = state.withLock { $0.targets[target] }
    _ = box?.takeCached()
  }

  /// Whether a target of that name is registered (CTMediator's "is this target linked").
  package func hasTarget(_ target: String) -> Bool {
    state.withLock { $0.targets[target] != nil }
  }

  /// Whether `target` declares `action`.
  package func hasAction(target: String, action: String) -> Bool {
    state.withLock { $0.actions[NamePair(target, action)] != nil }
  }

  /// Every target with its owner, type and declared actions, sorted by target and action name.
  package func targets() -> [TargetInfo] {
    let boxes = state.withLock { Array($0.targets.values) }
    return boxes.map { box in
      TargetInfo(
        name: box.manifest.name, owner: box.owner, type: box.typeName,
        actions: box.manifest.actions.sorted { $0.name < $1.name }, isCached: box.isCached)
    }
    .sorted { $0.name < $1.name }
  }

  // MARK: Interceptors

  /// Installs `interceptor` for the calls `scope` matches; keep the token to remove it. A
  /// `once` interceptor serves exactly one call, the first to reach it even when calls race,
  /// and is then removed. See ``Interceptor`` for the order interceptors run in. Through a
  /// module's `context.mediator`, the interceptor is removed when the module is unloaded.
  ///
  /// ```swift
  /// mediator.intercept(.global, .before { _ in .veto("maintenance") }, once: true)
  /// ```
  @discardableResult
  public func intercept(_ scope: Interceptor.Scope, _ interceptor: Interceptor, once: Bool = false)
    -> Interceptor.Token
  {
    state.withLock { state in
      state.nextInterceptorID += 1
      let entry = Installed(
        id: state.nextInterceptorID, owner: owner, scope: scope, interceptor: interceptor,
        once: once ? Once() : nil)
      // Kept outermost scope first, installation order within a scope.
      let index = state.interceptors.lastIndex { $0.scope.level <= scope.level }
      state.interceptors.insert(entry, at: index.map { $0 + 1 } ?? 0)
      return Interceptor.Token(id: state.nextInterceptorID)
    }
  }

  /// Removes an installed interceptor; false when the token was already removed.
  @discardableResult
  public func removeInterceptor(_ token: Interceptor.Token) -> Bool {
    let removed = state.withLock { state -> Installed? in
      guard let index = state.interceptors.firstIndex(where: { $0.id == token.id }) else {
        return nil
      }
      return state.interceptors.remove(at: index)
    }
    return removed != nil
  }

  // MARK: Local calls

  /// Calls a synchronous action on the calling thread. Parameters are checked against the
  /// declaration first (declared defaults are filled in); `cache` keeps the target instance for
  /// later cached calls, and a call with `cache: false` always gets a new instance. A
  /// synchronous call has no time limit: it is the caller's own thread the action holds.
  ///
  /// ```swift
  /// let count = try mediator.perform(target: "notes", action: "count", cache: true) as? Int
  /// ```
  @discardableResult
  public func perform(
    target: String, action: String, params: [String: any Sendable] = [:], cache: Bool = false
  ) throws -> (any Sendable)? {
    try complete(begin(target, action, params, cache: cache))
  }

  /// Calls a synchronous or `async` action; see the synchronous overload. The action runs off
  /// Swift's cooperative pool and is bounded by its declared `timeout`: past it the caller gets
  /// ``ErrorCode/timedOut``.
  ///
  /// ```swift
  /// let hits = try await mediator.perform(target: "search", action: "query", params: ["q": "x"])
  /// ```
  @discardableResult
  public func perform(
    target: String, action: String, params: [String: any Sendable] = [:], cache: Bool = false
  ) async throws -> (any Sendable)? {
    try await complete(begin(target, action, params, cache: cache))
  }

  /// Calls a synchronous action and returns its result as an `R`.
  ///
  /// ```swift
  /// let count = try mediator.perform(target: "notes", action: "count", as: Int.self)
  /// ```
  public func perform<R>(
    target: String, action: String, params: [String: any Sendable] = [:], cache: Bool = false,
    as type: R.Type
  ) throws -> R {
    let result = try perform(target: target, action: action, params: params, cache: cache)
    return try Self.cast(result, R.self, target: target, action: action)
  }

  /// Calls an action and returns its result as an `R`, as generated typed clients do.
  ///
  /// ```swift
  /// let note = try await mediator.perform(
  ///   target: "notes", action: "create", params: ["title": "Hi"], as: [String: any Sendable].self)
  /// ```
  public func perform<R>(
    target: String, action: String, params: [String: any Sendable] = [:], cache: Bool = false,
    as type: R.Type
  ) async throws -> R {
    let result = try await perform(target: target, action: action, params: params, cache: cache)
    return try Self.cast(result, R.self, target: target, action: action)
  }

  private static func cast<R>(
    _ result: (any Sendable)?, _ type: R.Type, target: String, action: String
  )
    throws(MediatorError) -> R
  {
    guard let typed = result as? R else {
      throw .wrongResultType(
        target: target, action: action, expected: String(describing: R.self),
        found: result.map(MediatorError.typeName(of:)) ?? "nil")
    }
    return typed
  }

  // MARK: Remote calls

  /// Performs the call a URL describes, `scheme://target/action?key=value`, if the URL uses the
  /// application's scheme, the action is declared remote and the parameters fit the declaration
  /// (query text is converted to the declared kinds). A refused URL throws an error saying why.
  /// A URL that names no declared action stays remote: the target's not-found handler sees its
  /// origin, and the application fallback takes it only if the fallback is declared remote.
  ///
  /// ```swift
  /// let note = try mediator.open("notebook://notes/create?title=Hello%20world&pinned=true")
  /// ```
  @discardableResult
  public func open(_ url: String, cache: Bool = false) throws -> (any Sendable)? {
    try complete(begin(url: url, cache: cache))
  }

  /// Performs the call a URL describes, bounded by the action's `timeout`; see the synchronous
  /// overload and the `async` `perform`.
  @discardableResult
  public func open(_ url: String, cache: Bool = false) async throws -> (any Sendable)? {
    try await complete(begin(url: url, cache: cache))
  }

  /// Throws what `open(_:cache:)` would throw for `url`'s syntax and scheme, without looking
  /// at targets: the host checks a URL before it boots the application that is to take it.
  ///
  /// ```swift
  /// try mediator.checkURL("notebook://notes")  // malformedURL: no action
  /// ```
  package func checkURL(_ url: String) throws(MediatorError) {
    _ = try RemoteURL.parse(url, scheme: scheme)
  }

  /// Whether `open(_:cache:)` would accept `url`, and the action it would call, without
  /// calling anything: the scheme, the target and action, the remote flag and the parameters
  /// against the declaration. A URL naming no declared action is accepted only when the
  /// application fallback is remote and takes it; a target's own not-found handler is code,
  /// so it is not asked. Interceptors are not asked either.
  ///
  /// ```swift
  /// if case .failure(let reason) = mediator.canOpen("notebook://notes/purge") { print(reason) }
  /// ```
  package func canOpen(_ url: String) -> Result<ActionReference, MediatorError> {
    do throws(MediatorError) {
      let parsed = try RemoteURL.parse(url, scheme: scheme)
      if let prepared = lookup(parsed.target, parsed.action).0 {
        guard prepared.manifest.isRemote else {
          throw .notRemote(target: parsed.target, action: parsed.action)
        }
        _ = try prepared.schema.convert(parsed.query)
        return .success(ActionReference(target: parsed.target, action: parsed.action))
      }
      let call = ActionCall(
        target: parsed.target, action: parsed.action, params: Self.raw(parsed.query),
        origin: .remote(url: url))
      guard let (fallback, params, _) = try fallbackCall(call) else {
        throw hasTarget(call.target)
          ? .actionNotFound(target: call.target, action: call.action)
          : .targetNotFound(target: call.target, action: call.action)
      }
      _ = try fallback.schema.check(params)
      return .success(ActionReference(target: fallback.target, action: fallback.action))
    } catch {
      return .failure(error)
    }
  }

  // MARK: Dispatch

  /// Where a call stands once everything before the action has run: the lookup, the not-found
  /// chain, the parameter check, and the `before` and `instead` interceptors. Every entry point
  /// makes one with ``begin(_:_:_:cache:)`` or ``begin(url:cache:)`` and ends it with a
  /// synchronous or an `async` ``complete(_:)``; only running the action differs between them.
  private struct Dispatch {
    enum Step {
      /// Answered already: by a not-found handler or an `instead`.
      case answered((any Sendable)?)
      /// Failed already: a `before`'s veto or a throwing `instead`. (Two cases, not a `Result`,
      /// whose generic metadata the call path would look up on every call.)
      case failed(any Error)
      /// The action to run.
      case run(PreparedAction, Parameters)
    }
    var step: Step
    let cache: Bool
    /// The call as interceptors see it, and the interceptors that match it; none (and no call
    /// built) when no interceptor matches.
    var call: ActionCall?
    var matching: [Installed] = []
  }

  private func begin(
    _ target: String, _ action: String, _ params: [String: any Sendable], cache: Bool
  ) throws -> Dispatch {
    let (prepared, interceptors) = lookup(target, action)
    guard let prepared else {
      return try notFound(
        ActionCall(target: target, action: action, params: params, origin: .local), cache: cache)
    }
    return try begin(prepared, prepared.schema.check(params), interceptors, .local, cache)
  }

  private func begin(url: String, cache: Bool) throws -> Dispatch {
    let parsed = try RemoteURL.parse(url, scheme: scheme)
    let origin = ActionCall.Origin.remote(url: url)
    let (prepared, interceptors) = lookup(parsed.target, parsed.action)
    guard let prepared else {
      let call = ActionCall(
        target: parsed.target, action: parsed.action, params: Self.raw(parsed.query),
        origin: origin)
      return try notFound(call, cache: cache)
    }
    guard prepared.manifest.isRemote else {
      throw MediatorError.notRemote(target: parsed.target, action: parsed.action)
    }
    let params = try prepared.schema.convert(parsed.query)
    return begin(prepared, params, interceptors, origin, cache)
  }

  /// The query as written, for the not-found path (the first of repeated keys wins).
  private static func raw(_ query: [RemoteURL.QueryItem]) -> [String: any Sendable] {
    Dictionary(query.map { ($0.key, $0.value as any Sendable) }) { first, _ in first }
  }

  private func begin(
    _ prepared: PreparedAction, _ params: [String: any Sendable], _ installed: [Installed],
    _ origin: ActionCall.Origin, _ cache: Bool
  ) -> Dispatch {
    let parameters = Parameters(
      params, target: prepared.target, action: prepared.action, origin: origin)
    var dispatch = Dispatch(step: .run(prepared, parameters), cache: cache)
    guard Self.anyMatches(installed, prepared) else { return dispatch }
    let call = ActionCall(
      target: prepared.target, action: prepared.action, params: params, origin: origin)
    let matching = claim(
      installed.filter { $0.scope.matches(target: call.target, action: call.action) })
    guard !matching.isEmpty else { return dispatch }
    dispatch.call = call
    dispatch.matching = matching
    for entry in matching {
      if case .veto(let reason) = entry.interceptor.before?(call) ?? .proceed {
        dispatch.step = .failed(
          MediatorError.vetoed(target: call.target, action: call.action, reason: reason))
        return dispatch
      }
    }
    // The innermost scope's most recently installed `instead` replaces the action.
    if let instead = matching.last(where: { $0.interceptor.instead != nil })?.interceptor.instead {
      do {
        dispatch.step = .answered(try instead(call))
      } catch {
        dispatch.step = .failed(error)
      }
    }
    return dispatch
  }

  /// Runs a call on the calling thread.
  private func complete(_ dispatch: Dispatch) throws -> (any Sendable)? {
    if dispatch.call == nil, case .run(let prepared, let parameters) = dispatch.step {
      guard let run = prepared.runSync else { throw Self.asyncError(prepared) }
      return try run(parameters, dispatch.cache)
    }
    let result: Result<(any Sendable)?, any Error>
    switch dispatch.step {
    case .answered(let value): result = .success(value)
    case .failed(let error): result = .failure(error)
    case .run(let prepared, let parameters):
      result = Result {
        guard let run = prepared.runSync else { throw Self.asyncError(prepared) }
        return try run(parameters, dispatch.cache)
      }
    }
    return try finish(dispatch, result)
  }

  /// Runs a call off the cooperative pool, within the action's time limit.
  private func complete(_ dispatch: Dispatch) async throws -> (any Sendable)? {
    let result: Result<(any Sendable)?, any Error>
    switch dispatch.step {
    case .answered(let value): result = .success(value)
    case .failed(let error): result = .failure(error)
    case .run(let prepared, let parameters):
      do {
        result = .success(
          try await ActionDeadline.run(prepared, parameters, cache: dispatch.cache))
      } catch {
        result = .failure(error)
      }
    }
    return try finish(dispatch, result)
  }

  /// Runs the `after`s, then returns or throws the result.
  private func finish(_ dispatch: Dispatch, _ result: Result<(any Sendable)?, any Error>) throws
    -> (any Sendable)?
  {
    if let call = dispatch.call {
      // Innermost scope first (action, target, global), each in installation order.
      for level in [2, 1, 0] {
        for entry in dispatch.matching where entry.scope.level == level {
          entry.interceptor.after?(call, result)
        }
      }
    }
    return try result.get()
  }

  private func lookup(_ target: String, _ action: String) -> (PreparedAction?, [Installed]) {
    state.withLock { ($0.actions[NamePair(target, action)], $0.interceptors) }
  }

  /// False when no interceptor is installed (the common case: one `isEmpty` check) or none
  /// matches the action, so the call skips building an ``ActionCall``.
  @inline(__always)
  private static func anyMatches(_ installed: [Installed], _ prepared: PreparedAction) -> Bool {
    !installed.isEmpty
      && installed.contains { $0.scope.matches(target: prepared.target, action: prepared.action) }
  }

  /// `matching` minus the once-only interceptors another call has claimed; a once-only
  /// interceptor this call claims is uninstalled.
  private func claim(_ matching: [Installed]) -> [Installed] {
    guard matching.contains(where: { $0.once != nil }) else { return matching }
    return matching.filter { entry in
      guard let once = entry.once else { return true }
      guard once.claim() else { return false }
      removeInterceptor(Interceptor.Token(id: entry.id))
      return true
    }
  }

  private static func asyncError(_ prepared: PreparedAction) -> MediatorError {
    .asyncActionInSyncCall(target: prepared.target, action: prepared.action)
  }

  // MARK: Not found

  /// The target's own handler, then the fallback, else the typed error. A remote call reaches
  /// the fallback only when it is declared remote, and the fallback sees the call's origin.
  private func notFound(_ call: ActionCall, cache: Bool) throws -> Dispatch {
    // If the action exists now, the target was re-added after the caller's lookup missed it:
    // answer as that lookup saw it (no target), not with the new target's handler.
    let box = state.withLock { state in
      state.actions[NamePair(call.target, call.action)] == nil
        ? state.targets[call.target] : nil
    }
    if let box, case .handled(let value) = try box.notFound(call, cache: cache) {
      return Dispatch(step: .answered(value), cache: cache)
    }
    if let (prepared, params, interceptors) = try fallbackCall(call) {
      return begin(prepared, try prepared.schema.check(params), interceptors, call.origin, false)
    }
    throw box == nil
      ? MediatorError.targetNotFound(target: call.target, action: call.action)
      : MediatorError.actionNotFound(target: call.target, action: call.action)
  }

  /// The fallback action and its parameters for `call`, or nil when there is no fallback or
  /// `call` is remote and the fallback is not.
  private func fallbackCall(_ call: ActionCall) throws(MediatorError) -> (
    PreparedAction, [String: any Sendable], [Installed]
  )? {
    guard let fallback,
      case (let prepared?, let interceptors) = lookup(fallback.target, fallback.action)
    else { return nil }
    if case .remote = call.origin, !prepared.manifest.isRemote { return nil }
    let params: [String: any Sendable] = [
      "target": call.target, "action": call.action, "params": call.params,
    ]
    return (prepared, params, interceptors)
  }

  // MARK: Helpers

  private static func prepare<T: ActionTarget>(
    _ type: T.Type, manifest: TargetManifest, typeName: String, owner: String,
    maker: some TargetMaker, catalog: TypeCatalog
  ) throws(MediatorError) -> (TargetBox, [PreparedAction]) {
    guard let make = maker.maker(for: T.self, named: typeName, in: catalog) else {
      throw .notATarget(module: owner, target: manifest.name, type: typeName)
    }
    let box = TargetBox(manifest: manifest, typeName: typeName, owner: owner, make: make)
    let table = T.actions
    var names = Set<String>()
    var prepared: [PreparedAction] = []
    for action in manifest.actions {
      guard names.insert(action.name).inserted else {
        throw .duplicateAction(module: owner, target: manifest.name, action: action.name)
      }
      guard let implementation = table[action.name] else {
        throw .actionNotImplemented(
          module: owner, target: manifest.name, action: action.name, type: typeName,
          implemented: table.names)
      }
      let schema = try ParameterSchema(module: owner, target: manifest.name, action: action)
      prepared.append(
        PreparedAction(
          target: manifest.name, manifest: action, schema: schema, action: implementation, box: box
        ))
    }
    return (box, prepared)
  }

  /// `NotesPlugin.NotesModule` and `notes` give `NotesPlugin.NotesTarget`.
  package static func conventionalTypeName(_ target: String, moduleType: String) -> String {
    let swiftModule = moduleType.split(separator: ".").first.map(String.init) ?? moduleType
    return "\(swiftModule).\(SwiftName.type(target))Target"
  }
}
