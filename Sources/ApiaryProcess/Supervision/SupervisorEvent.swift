/// What a ``Supervisor`` tells the placement code, in order, as a child's life goes on.
package enum SupervisorEvent: Sendable, Hashable {
  /// A child is running (first start, automatic restart or `:restart`); `restarts` is
  /// ``SupervisorStatus/restarts`` then: 0 after a first start or a `:restart`.
  case started(pid: Int32, restarts: Int)
  /// A health check failed; the child is being killed (a ``crashed(_:)`` follows).
  case hung(pid: Int32, HealthFailure)
  /// The child ended without being asked to: fail the calls in flight with this error.
  case crashed(ChildCrashError)
  /// A restart is scheduled after `delay`; `attempt` is ``SupervisorStatus/restarts`` with this
  /// restart counted, from 1 after a first start or a `:restart`.
  case restarting(attempt: Int, delay: Duration)
  /// Restart `attempt` did not bring a child up, for `reason`; another restart or the end
  /// follows.
  case restartFailed(attempt: Int, reason: String)
  /// No restart will come: mark the module failed, for this reason.
  case gaveUp(reason: String)
}
