/// A module's child process ended while the host needed it: what calls in flight fail with.
///
/// ```swift
/// ChildCrashError(module: "notes", pid: 4242, exit: .signaled(11)).description
/// // "module 'notes' crashed: its process 4242 was killed by signal 11 (SIGSEGV)"
/// ChildCrashError(module: "notes", pid: 4242, exit: .signaled(15), cause: "broke …").description
/// // "module 'notes' broke …; its process 4242 was ended"
/// ```
package struct ChildCrashError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A stable code for scripts and tests.
  package static let code = "child-crashed"
  package var module: String
  package var pid: Int32
  package var exit: ChildExit
  /// Set when the host killed the child because its health check failed.
  package var hang: HealthFailure?
  /// Set when the host ended the child for this reason (`broke the wire protocol (…)`): its
  /// exit is then the host's own signal, not the cause.
  package var cause: String?

  package init(
    module: String, pid: Int32, exit: ChildExit, hang: HealthFailure? = nil, cause: String? = nil
  ) {
    self.module = module
    self.pid = pid
    self.exit = exit
    self.hang = hang
    self.cause = cause
  }

  package var description: String {
    hang == nil && cause == nil
      ? "module '\(module)' crashed: \(outcome)" : "module '\(module)' \(outcome)"
  }

  /// What happened, without the module's name: `its process 4242 exited with status 3`.
  package var outcome: String {
    if let hang { return "hung (\(hang)); its process \(pid) was killed" }
    if let cause { return "\(cause); its process \(pid) was ended" }
    let how = exit.description.hasPrefix("killed") ? "was \(exit)" : "\(exit)"
    return "its process \(pid) \(how)"
  }
}
