/// A call reached a process-placed module whose child is not running: it failed for good, was
/// stopped, or did not come back from a restart within the caller's bound.
///
/// ```swift
/// ModuleUnavailableError(module: "notes", state: .restarting, reason: "not back within 5 s")
///   .description  // "module 'notes' is restarting: not back within 5 s"
/// ```
package struct ModuleUnavailableError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A stable code for scripts and tests.
  package static let code = "module-unavailable"
  package var module: String
  package var state: SupervisorStatus.State
  package var reason: String

  package init(module: String, state: SupervisorStatus.State, reason: String) {
    self.module = module
    self.state = state
    self.reason = reason
  }

  package var description: String { "module '\(module)' is \(state): \(reason)" }
}
