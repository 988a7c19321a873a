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
/// target's ``Target/notFound(_:)`` handler, then to the application's fallback action, then
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
  public let scheme: String
  /// Where calls that find no target or action go after the target's not-found handler. It
  /// receives the parameters `target`, `action`, `params` (the original parameters) and
  /// `origin` (`"local"` or the URL).
  package let fallback: ActionReference?
  private let catalog: TypeCatalog
  private let state = Locked(State())

  private struct Key: Hashable, Sendable {
    let target: String
    let action: String
  }

  private struct Installed: Sendable {
    let id: Int
    let scope: Interceptor.Scope
    let interceptor: Interceptor
  }

  private struct State: Sendable {
    var actions: [Key: PreparedAction] = [:]
    var targets: [String: TargetBox] = [:]
    var interceptors: [Installed] = []
    var nextInterceptorID = 0
  }

  package init(scheme: String, catalog: TypeCatalog, fallback: ActionReference? = nil) {
    self.scheme = scheme
    self.catalog = catalog
    self.fallback = fallback
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
      guard let type = catalog.lookup(typeName) else {
        throw .typeNotFound(module: owner, target: manifest.name, type: typeName)
      }
      guard let targetType = type as? any ActionTarget.Type else {
        throw .notATarget(module: owner, target: manifest.name, type: typeName)
      }
      let (box, prepared) = try Self.prepare(
        targetType, manifest: manifest, typeName: typeName, owner: owner, maker: maker)
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
        state.actions[Key(target: action.target, action: action.action)] = action
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
      state.actions = state.actions.filter { !names.contains($0.key.target) }
      return removed
    }
    // Cached targets are released here, outside the lock, in case their deinit does work.
    for box in removed { _ = box.takeCached() }
  }

  /// Drops the cached instance of `target`, if any; the next cached call creates a new one.
  public func releaseCachedTarget(_ target: String) {
    let box = state.withLock { $0.targets[target] }
    _ = box?.takeCached()
  }

  /// Whether a target of that name is registered (CTMediator's "is this target linked").
  public func hasTarget(_ target: String) -> Bool {
    state.withLock { $0.targets[target] != nil }
  }

  /// Whether `target` declares `action`.
  public func hasAction(target: String, action: String) -> Bool {
    state.withLock { $0.actions[Key(target: target, action: action)] != nil }
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

  /// Installs `interceptor` for the calls `scope` matches; keep the token to remove it.
  @discardableResult
  public func intercept(_ scope: Interceptor.Scope, _ interceptor: Interceptor)
    -> Interceptor.Token
  {
    state.withLock { state in
      state.nextInterceptorID += 1
      state.interceptors.append(
        Installed(id: state.nextInterceptorID, scope: scope, interceptor: interceptor))
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

  /// Calls a synchronous action. Parameters are checked against the declaration first (declared
  /// defaults are filled in); `cache` keeps the target instance for later cached calls, and a
  /// call with `cache: false` always gets a new instance.
  ///
  /// ```swift
  /// let count = try mediator.perform(target: "notes", action: "count", cache: true) as? Int
  /// ```
  @discardableResult
  public func perform(
    target: String, action: String, params: [String: any Sendable] = [:], cache: Bool = false
  ) throws -> (any Sendable)? {
    let (prepared, interceptors) = lookup(target, action)
    guard let prepared else {
      return try notFound(
        ActionCall(target: target, action: action, params: params, origin: .local), cache: cache)
    }
    return try run(prepared, prepared.schema.check(params), interceptors, .local, cache)
  }

  /// Calls a synchronous or `async` action; see the synchronous overload.
  ///
  /// ```swift
  /// let hits = try await mediator.perform(target: "search", action: "query", params: ["q": "x"])
  /// ```
  @discardableResult
  public func perform(
    target: String, action: String, params: [String: any Sendable] = [:], cache: Bool = false
  ) async throws -> (any Sendable)? {
    let (prepared, interceptors) = lookup(target, action)
    guard let prepared else {
      return try await notFound(
        ActionCall(target: target, action: action, params: params, origin: .local), cache: cache)
    }
    return try await run(prepared, prepared.schema.check(params), interceptors, .local, cache)
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
  ///
  /// ```swift
  /// let note = try mediator.open("notebook://notes/create?title=Hello%20world&pinned=true")
  /// ```
  @discardableResult
  public func open(_ url: String, cache: Bool = false) throws -> (any Sendable)? {
    let (prepared, params, interceptors) = try resolve(url)
    guard let prepared else { return try notFound(params, cache: cache) }
    return try run(prepared, params.params, interceptors, params.origin, cache)
  }

  /// Performs the call a URL describes; see the synchronous overload.
  @discardableResult
  public func open(_ url: String, cache: Bool = false) async throws -> (any Sendable)? {
    let (prepared, params, interceptors) = try resolve(url)
    guard let prepared else { return try await notFound(params, cache: cache) }
    return try await run(prepared, params.params, interceptors, params.origin, cache)
  }

  /// Parses and checks a URL. Returns the prepared action with converted parameters, or no
  /// action and the call as written, for the not-found path.
  private func resolve(_ url: String) throws(MediatorError) -> (
    PreparedAction?, ActionCall, [Installed]
  ) {
    let parsed = try RemoteURL.parse(url, scheme: scheme)
    let origin = ActionCall.Origin.remote(url: url)
    let (prepared, interceptors) = lookup(parsed.target, parsed.action)
    guard let prepared else {
      let raw = Dictionary(parsed.query.map { ($0.key, $0.value as any Sendable) }) { first, _ in
        first
      }
      let call = ActionCall(
        target: parsed.target, action: parsed.action, params: raw, origin: origin)
      return (nil, call, interceptors)
    }
    guard prepared.manifest.isRemote else {
      throw .notRemote(target: parsed.target, action: parsed.action)
    }
    let params = try prepared.schema.convert(parsed.query)
    let call = ActionCall(
      target: parsed.target, action: parsed.action, params: params, origin: origin)
    return (prepared, call, interceptors)
  }

  // MARK: Dispatch

  private func lookup(_ target: String, _ action: String) -> (PreparedAction?, [Installed]) {
    state.withLock { ($0.actions[Key(target: target, action: action)], $0.interceptors) }
  }

  private func run(
    _ prepared: PreparedAction, _ params: [String: any Sendable], _ installed: [Installed],
    _ origin: ActionCall.Origin, _ cache: Bool
  ) throws -> (any Sendable)? {
    let parameters = Parameters(params, target: prepared.target, action: prepared.action)
    guard Self.anyMatches(installed, prepared) else {
      guard let run = prepared.runSync else { throw Self.asyncError(prepared) }
      return try run(parameters, cache)
    }
    let call = ActionCall(
      target: prepared.target, action: prepared.action, params: params, origin: origin)
    let matching = installed.filter { $0.scope.matches(target: call.target, action: call.action) }
    let result = Result { () throws -> (any Sendable)? in
      if let instead = try Self.before(call, matching) { return try instead(call) }
      guard let run = prepared.runSync else { throw Self.asyncError(prepared) }
      return try run(parameters, cache)
    }
    for entry in matching { entry.interceptor.after?(call, result) }
    return try result.get()
  }

  private func run(
    _ prepared: PreparedAction, _ params: [String: any Sendable], _ installed: [Installed],
    _ origin: ActionCall.Origin, _ cache: Bool
  ) async throws -> (any Sendable)? {
    let parameters = Parameters(params, target: prepared.target, action: prepared.action)
    guard Self.anyMatches(installed, prepared) else {
      return try await prepared.runAsync(parameters, cache)
    }
    let call = ActionCall(
      target: prepared.target, action: prepared.action, params: params, origin: origin)
    let matching = installed.filter { $0.scope.matches(target: call.target, action: call.action) }
    let result: Result<(any Sendable)?, any Error>
    do {
      if let instead = try Self.before(call, matching) {
        result = .success(try instead(call))
      } else {
        result = .success(try await prepared.runAsync(parameters, cache))
      }
    } catch {
      result = .failure(error)
    }
    for entry in matching { entry.interceptor.after?(call, result) }
    return try result.get()
  }

  /// False when no interceptor is installed (the common case: one `isEmpty` check) or none
  /// matches the action, so the call skips building an ``ActionCall``.
  @inline(__always)
  private static func anyMatches(_ installed: [Installed], _ prepared: PreparedAction) -> Bool {
    !installed.isEmpty
      && installed.contains { $0.scope.matches(target: prepared.target, action: prepared.action) }
  }

  /// Runs the `before` interceptors; returns the `instead` that replaces the action, if any.
  private static func before(_ call: ActionCall, _ matching: [Installed]) throws(MediatorError)
    -> Interceptor.Instead?
  {
    for entry in matching {
      if case .veto(let reason) = entry.interceptor.before?(call) ?? .proceed {
        throw .vetoed(target: call.target, action: call.action, reason: reason)
      }
    }
    return matching.last { $0.interceptor.instead != nil }?.interceptor.instead
  }

  private static func asyncError(_ prepared: PreparedAction) -> MediatorError {
    .asyncActionInSyncCall(target: prepared.target, action: prepared.action)
  }

  // MARK: Not found

  private enum NotFoundStep {
    case handled((any Sendable)?)
    case fallback(PreparedAction, [String: any Sendable], [Installed])
  }

  /// The target's own handler, then the fallback's prepared call, else the typed error.
  private func notFoundStep(_ call: ActionCall, cache: Bool) throws -> NotFoundStep {
    // If the action exists now, the target was re-added after the caller's lookup missed it:
    // answer as that lookup saw it (no target), not with the new target's handler.
    let box = state.withLock { state in
      state.actions[Key(target: call.target, action: call.action)] == nil
        ? state.targets[call.target] : nil
    }
    if let box, case .handled(let value) = try box.notFound(call, cache: cache) {
      return .handled(value)
    }
    if let fallback,
      case (let prepared?, let interceptors) = lookup(fallback.target, fallback.action)
    {
      var origin = "local"
      if case .remote(let url) = call.origin { origin = url }
      let params: [String: any Sendable] = [
        "target": call.target, "action": call.action, "params": call.params, "origin": origin,
      ]
      return .fallback(prepared, try prepared.schema.check(params), interceptors)
    }
    throw box == nil
      ? MediatorError.targetNotFound(target: call.target, action: call.action)
      : MediatorError.actionNotFound(target: call.target, action: call.action)
  }

  private func notFound(_ call: ActionCall, cache: Bool) throws -> (any Sendable)? {
    switch try notFoundStep(call, cache: cache) {
    case .handled(let value): return value
    case .fallback(let prepared, let params, let interceptors):
      return try run(prepared, params, interceptors, .local, false)
    }
  }

  private func notFound(_ call: ActionCall, cache: Bool) async throws -> (any Sendable)? {
    switch try notFoundStep(call, cache: cache) {
    case .handled(let value): return value
    case .fallback(let prepared, let params, let interceptors):
      return try await run(prepared, params, interceptors, .local, false)
    }
  }

  // MARK: Helpers

  private static func prepare<T: ActionTarget>(
    _ type: T.Type, manifest: TargetManifest, typeName: String, owner: String,
    maker: some TargetMaker
  ) throws(MediatorError) -> (TargetBox, [PreparedAction]) {
    guard let make = maker.maker(for: T.self) else {
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
      guard let implementation = table.actions[action.name] else {
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
