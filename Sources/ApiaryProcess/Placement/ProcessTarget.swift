import ApiaryKernel
import ApiaryManifest
import ApiaryMediator
import ApiarySupport

/// Stands in the host for a target of a process-placed module: every declared action forwards
/// the checked parameters to the child (`perform`, with the URL of a remote call, so a Swift
/// child applies the same URL policy again) and checks the result against the action's
/// `returns` kind.
///
/// A forwarded action is synchronous, so synchronous and `await`ed callers both work, as with a
/// target in the host's process; a synchronous call waits at most the action's `timeout`.
public final class ProcessTarget: Target {
  private let context: ModuleContext
  private let module: String
  /// Declared actions by target and action name.
  private let declared: [String: ActionManifest]

  public init(context: ModuleContext) throws {
    self.context = context
    self.module = context.name
    var declared: [String: ActionManifest] = [:]
    for target in context.manifest.targets {
      for action in target.actions { declared["\(target.name).\(action.name)"] = action }
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
    let forward = Action<ProcessTarget>.sync { target, params in try target.forward(params) }
    return ActionTable(
      Dictionary(uniqueKeysWithValues: names.withLock { $0 }.map { ($0, forward) }))
  }

  /// Sends one call to the child and waits for its result.
  func forward(_ params: Parameters) throws -> (any Sendable)? {
    let link = try ProcessModule.link(context)
    let action = declared["\(params.target).\(params.action)"]
    let seconds = action?.timeout ?? ActionManifest.defaultTimeout
    let what = "\(params.target).\(params.action)"
    var message: [String: any Sendable] = [
      "target": params.target, "action": params.action, "params": params.values,
    ]
    if case .remote(let url) = params.origin, Self.url(url, names: params.target, params.action) {
      message["url"] = url
    }
    let result = try ProcessModule.callBlocking(
      link, "perform", message, what: "parameters of \(what)", seconds: seconds)
    if let kind = action?.returns, !Self.matches(result, kind) {
      throw ProcessModuleError(
        module: module, pid: link.child.pid,
        reason: "\(what) returned \(result.kindName); its manifest declares \(kind.rawValue)")
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
