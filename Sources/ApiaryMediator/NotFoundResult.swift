/// What a target's ``ActionTarget/notFound(_:)`` handler did with a call it has no action for.
///
/// ```swift
/// func notFound(_ call: ActionCall) throws -> NotFoundResult {
///   call.action.hasPrefix("legacy") ? .handled("moved") : .unhandled
/// }
/// ```
public enum NotFoundResult: Sendable {
  /// The handler answered the call; this is the call's result.
  case handled((any Sendable)?)
  /// The call goes on to the application's fallback, then to a typed error.
  case unhandled
}
