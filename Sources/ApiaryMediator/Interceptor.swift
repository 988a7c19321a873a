import ApiarySupport

/// Observes or shapes calls without touching the target, in the manner of the Aspects library:
/// `before` may veto a call with a reason, `instead` replaces the action, `after` sees the
/// result or the error. Install with ``Mediator/intercept(_:_:once:)`` for every call, one target,
/// or one action; remove with the returned token.
///
/// ```swift
/// let token = mediator.intercept(.target("notes"), .after { call, result in
///   log("\(call.target)/\(call.action): \(result)")
/// })
/// mediator.removeInterceptor(token)
/// ```
///
/// Interceptors run on the calling task, outside every mediator lock, after the parameters have
/// been checked, for every call that reaches a declared action (the fallback action included;
/// not a target's not-found handler). Their order is structural: global interceptors wrap
/// target interceptors, which wrap action interceptors, whatever the order of installation;
/// within one scope, installation order.
///
/// - `before`s run outermost first (global, target, action) until one vetoes;
/// - the innermost `instead` replaces the action (the action scope's, else the target's, else
///   the global one; the most recently installed within a scope);
/// - `after`s run innermost first (action, target, global), also for vetoed and failed calls.
public struct Interceptor: Sendable {
  /// What a `before` interceptor decided.
  public enum Decision: Sendable, Hashable {
    case proceed
    /// Refuse the call; the caller gets ``ErrorCode/vetoed``.
    case veto(String)
  }

  package typealias Before = @Sendable (ActionCall) -> Decision
  package typealias Instead = @Sendable (ActionCall) throws -> (any Sendable)?
  package typealias After = @Sendable (ActionCall, Result<(any Sendable)?, any Error>) -> Void

  package var before: Before?
  package var instead: Instead?
  package var after: After?

  public init(
    before: (@Sendable (ActionCall) -> Decision)? = nil,
    instead: (@Sendable (ActionCall) throws -> (any Sendable)?)? = nil,
    after: (@Sendable (ActionCall, Result<(any Sendable)?, any Error>) -> Void)? = nil
  ) {
    self.before = before
    self.instead = instead
    self.after = after
  }

  public static func before(_ body: @escaping @Sendable (ActionCall) -> Decision) -> Interceptor {
    Interceptor(before: body)
  }
  public static func instead(
    _ body: @escaping @Sendable (ActionCall) throws -> (any Sendable)?
  ) -> Interceptor {
    Interceptor(instead: body)
  }
  public static func after(
    _ body: @escaping @Sendable (ActionCall, Result<(any Sendable)?, any Error>) -> Void
  ) -> Interceptor {
    Interceptor(after: body)
  }

  /// Which calls an interceptor sees.
  public enum Scope: Sendable, Hashable {
    case global
    case target(String)
    case action(target: String, action: String)

    /// How deep the scope nests: global 0, target 1, action 2.
    var level: Int {
      switch self {
      case .global: 0
      case .target: 1
      case .action: 2
      }
    }

    func matches(target: String, action: String) -> Bool {
      switch self {
      case .global: true
      case .target(let name): name == target
      case .action(let targetName, let actionName): targetName == target && actionName == action
      }
    }
  }

  /// Identifies an installed interceptor, for ``Mediator/removeInterceptor(_:)``.
  public struct Token: Sendable, Hashable {
    let id: Int
  }
}
