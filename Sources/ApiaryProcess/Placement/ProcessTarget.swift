import ApiaryKernel
import ApiaryManifest
import ApiaryMediator
import ApiarySupport

/// Stands in the host for a target of a process-placed module: every declared action forwards
/// the checked parameters to the child (`perform`, with the URL of a remote call, so a Swift
/// child applies the same URL policy again) and checks the result against the action's
/// `returns` kind.
///
/// Synchronous and `await`ed callers both work, as with a target in the host's process: a
/// synchronous call blocks its thread (at most the action's `timeout`); an awaited one holds no
/// thread, so any number can be in flight.
public final class ProcessTarget: Target {
  private let context: ModuleContext
  private let module: String
  /// Declared actions by target and action name.
  private let declared: [String: [String: ActionManifest]]

  public init(context: ModuleContext) throws {
    self.context = context
    self.module = context.name
    var declared: [String: [String: ActionManifest]] = [:]
    for target in context.manifest.targets {
      for action in target.actions { declared[target.name, default: [:]][action.name] = action }
    }
    self.declared = declared
  }

  /// The action names every process-placed target declares. A target's action table is static,
  /// so all proxy targets share one, with the same forwarding action under every name; the
  /// mediator only ever calls the names a target declares.
  private static let names = Locked<Set<String>>([])

  /// Adds `targets`' action names to the shared table; call before the kernel adds them.
  package static func declare(_ targets: [TargetManifest]) {
    names.withLock { names in
      for target in targets { names.formUnion(target.actions.map(\.name)) }
    }
  }

  public static var actions: ActionTable<ProcessTarget> {
    let forward = Action<ProcessTarget>.both(
      sync: { target, params in try target.forward(params) },
      async: { target, params in try await target.forward(params) })
    return ActionTable(names.withLock { $0 }.map { ($0, forward) })
  }

  /// Sends one call to the child and waits for its result, blocking the thread.
  func forward(_ params: Parameters) throws -> (any Sendable)? {
    let link = try ProcessModule.link(context)
    let action = declared[params.target]?[params.action]
    let result = try ProcessModule.callBlocking(
      link, "perform", json: Self.request(params),
      seconds: action?.timeout ?? ActionManifest.defaultTimeout)
    return try check(result, params, action, link)
  }

  /// Sends one call to the child and awaits its result, holding no thread; past the action's
  /// `timeout` the caller gets the mediator's ``ErrorCode/timedOut``, as for any awaited call,
  /// and the child's late answer is dropped.
  func forward(_ params: Parameters) async throws -> (any Sendable)? {
    let link = try ProcessModule.link(context)
    let action = declared[params.target]?[params.action]
    let seconds = action?.timeout ?? ActionManifest.defaultTimeout
    let result: JSONValue
    do {
      result = try await ProcessModule.call(
        link, "perform", json: Self.request(params), seconds: seconds)
    } catch is CallTimedOut {
      throw MediatorError.timedOut(target: params.target, action: params.action, seconds: seconds)
    }
    return try check(result, params, action, link)
  }

  /// The `perform` request's parameters as JSON text: `action`, `params`, `target` and the
  /// `url` of a remote call, as the wire's writer would write that object (keys sorted; the
  /// call's parameters one level deep, and a value that cannot cross named under `.params`).
  static func request(_ params: Parameters) throws(NotRepresentable) -> String {
    let values: String
    do {
      values = try WireValue.encode(params.values, what: "", depth: 1)
    } catch {
      throw NotRepresentable(
        what: "parameters of \(params.target).\(params.action)",
        path: error.path.isEmpty ? "" : ".params" + error.path, reason: error.reason)
    }
    var text: [UInt8] = []
    text.reserveCapacity(64 + values.utf8.count)
    text += #"{"action":"#.utf8
    JSONWriter.quote(params.action, to: &text)
    text += #","params":"#.utf8
    text += values.utf8
    text += #","target":"#.utf8
    JSONWriter.quote(params.target, to: &text)
    if case .remote(let url) = params.origin, Self.url(url, names: params.target, params.action) {
      text += #","url":"#.utf8
      JSONWriter.quote(url, to: &text)
    }
    text.append(UInt8(ascii: "}"))
    return String(decoding: text, as: UTF8.self)
  }

  /// The result as plain values, after checking it against the declared `returns` kind.
  private func check(
    _ result: JSONValue, _ params: Parameters, _ action: ActionManifest?, _ link: ProcessLink
  ) throws -> (any Sendable)? {
    if let kind = action?.returns, !Self.matches(result, kind) {
      throw ProcessModuleError(
        module: module, pid: link.child.pid,
        reason: "\(params.target).\(params.action) returned \(result.kindName); its manifest "
          + "declares \(kind.rawValue)")
    }
    return result.plainValue
  }

  /// Whether `url` calls `target`'s `action` itself (not a fallback that took it).
  private static func url(_ url: String, names target: String, _ action: String) -> Bool {
    guard let rest = url.split(separator: "://", maxSplits: 1).last else { return false }
    let path = rest.split(separator: "?", maxSplits: 1).first ?? ""
    return path == "\(target)/\(action)"
  }

  /// Whether a result fits a declared `returns` kind (`null` fits every kind: no value).
  static func matches(_ value: JSONValue, _ kind: ParameterManifest.Kind) -> Bool {
    switch (kind, value) {
    case (.any, _), (_, .null), (.string, .string), (.bool, .bool), (.int, .int),
      (.double, .double), (.double, .int), (.array, .array), (.object, .object):
      return true
    case (.int, .double(let number)):
      return number.rounded() == number
    default:
      return false
    }
  }
}
