/// Stands in for a dormant module's handlers of an event until the module subscribes to it
/// itself: one object a module, shared by its events, instead of a closure for each.
///
/// ```swift
/// bus.subscribePlaceholders([(event: "saved", owner: "search", rank: 3, placeholder: wake)])
/// ```
package protocol EventPlaceholder: AnyObject, Sendable {
  /// The time limit, in seconds, of the module's handlers (its manifest's `timeout`).
  var seconds: Double { get }

  /// Wakes the module for `event`, and returns once its `setUp` has subscribed its handlers.
  func wake(for event: Event) async throws
}
