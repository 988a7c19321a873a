import ApiaryLifecycle

/// Why a lazy module did not wake, as its trigger receives it: the module, the phase that
/// failed (`load` when no hook ran: a dependency did not wake, or the kernel is shutting down),
/// what woke it and the cause.
///
/// A resolve gets it inside ``ErrorCode/factoryFailed`` and a call inside
/// ``ErrorCode/targetCreationFailed``; `kernel.activate(_:)` and an
/// event's dispatch report get it as it is.
///
/// ```swift
/// do { try await kernel.activate("search") } catch {
///   print(error)  // lazy module 'search' failed to wake in start (request): index is corrupt
/// }
/// ```
public struct ActivationError: Error, Sendable, CustomStringConvertible {
  public let module: String
  package let phase: LifecyclePhase
  package let trigger: ActivationTrigger
  public let cause: any Error

  package init(
    module: String, phase: LifecyclePhase, trigger: ActivationTrigger, cause: any Error
  ) {
    self.module = module
    self.phase = phase
    self.trigger = trigger
    self.cause = cause
  }

  /// No hook ran when a dependency is unavailable, so no phase is named:
  /// `lazy module 'search' failed to wake (request): its dependency 'store' failed`.
  public var description: String {
    guard !(cause is UnavailableDependency) else {
      return "lazy module '\(module)' failed to wake (\(trigger)): \(cause)"
    }
    return "lazy module '\(module)' failed to wake in \(phase) (\(trigger)): \(cause)"
  }
}
