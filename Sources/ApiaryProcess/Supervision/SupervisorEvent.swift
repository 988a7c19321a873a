/// What a ``Supervisor`` tells the placement code, in order, as a child's life goes on.
package enum SupervisorEvent: Sendable, Hashable {
  /// A child is running (first start, automatic restart or `:restart`); `restarts` so far.
  case started(pid: Int32, restarts: Int)
  /// A health check failed; the child is being killed (a ``crashed(_:)`` follows).
  case hung(pid: Int32, HealthFailure)
  /// The child ended without being asked to: fail the calls in flight with this error.
  case crashed(ChildCrashError)
  /// A restart is scheduled after `delay`; `attempt` counts from 1 since the last `:restart`.
  case restarting(attempt: Int, delay: Duration)
  /// No restart will come: mark the module failed, for this reason.
  case gaveUp(reason: String)
}
