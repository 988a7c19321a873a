import ApiaryLifecycle

/// Why a lazy module did not wake, as its trigger receives it: the module, the phase that
/// failed (`load` when no hook ran: a dependency did not wake, or the kernel is shutting down),
/// what woke it and the cause.
///
/// A resolve gets it inside ``ContainerError/factoryFailed(_:underlying:)`` and a call inside
/// ``MediatorError/targetCreationFailed(target:owner:reason:)``; ``Kernel/activate(_:)`` and an
/// event's dispatch report get it as it is.
///
/// ```swift
/// do { try await kernel.activate("search") } catch {
///   print(error)  // lazy module 'search' failed to wake in start (request): index is corrupt
/// }
/// ```
public struct ActivationError: Error, Sendable, CustomStringConvertible {
  public let module: String
  public let phase: LifecyclePhase
  public let trigger: ActivationTrigger
  public let cause: any Error

  public init(
    module: String, phase: LifecyclePhase, trigger: ActivationTrigger, cause: any Error
  ) {
    self.module = module
    self.phase = phase
    self.trigger = trigger
    self.cause = cause
  }

  public var description: String {
    "lazy module '\(module)' failed to wake in \(phase) (\(trigger)): \(cause)"
  }
}
