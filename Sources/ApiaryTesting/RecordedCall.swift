import ApiaryMediator

/// A mediator call a ``TestApplication`` saw: the call as interceptors see it (parameters
/// checked, defaults filled in) and what it returned or threw.
///
/// ```swift
/// let call = try #require(app.recordedCalls.first)
/// #expect(call.target == "greeter" && call.action == "greet")
/// ```
public struct RecordedCall: Sendable {
  public let call: ActionCall
  public let result: Result<(any Sendable)?, any Error>

  package var target: String { call.target }
  package var action: String { call.action }
  /// Whether the action returned rather than threw (or was vetoed).
  public var succeeded: Bool {
    if case .success = result { return true }
    return false
  }
}
