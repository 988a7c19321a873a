/// One call as interceptors, not-found handlers and the fallback see it.
///
/// ```swift
/// mediator.intercept(.global, .before { call in
///   call.origin == .local ? .proceed : .veto("remote calls are paused")
/// })
/// ```
public struct ActionCall: Sendable {
  public let target: String
  public let action: String
  /// The parameters after checking and conversion (declared defaults filled in), or as given
  /// when the call found no action.
  public let params: [String: any Sendable]
  public let origin: Origin

  package init(target: String, action: String, params: [String: any Sendable], origin: Origin) {
    self.target = target
    self.action = action
    self.params = params
    self.origin = origin
  }

  /// Where a call came from.
  public enum Origin: Sendable, Hashable {
    /// `perform(target:action:params:)` inside the process.
    case local
    /// `open(_:)` with this URL.
    case remote(url: String)
  }
}
