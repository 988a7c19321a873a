/// Stands in for a dormant module's handlers of an event until the module subscribes to it
/// itself: one object a module, shared by its events, instead of a closure for each.
///
/// ```swift
/// bus.subscribePlaceholders([(event: "saved", owner: "search", rank: 3, placeholder: wake)])
/// ```
package protocol EventPlaceholder: AnyObject, Sendable {
  /// Wakes the module, then delivers `event` to the handlers it subscribed on `bus`.
  func handle(_ event: Event, on bus: EventBus) async throws -> EventOutcome
}
