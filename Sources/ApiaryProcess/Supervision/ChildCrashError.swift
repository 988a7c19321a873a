/// A module's child process ended while the host needed it: what calls in flight fail with.
///
/// ```swift
/// ChildCrashError(module: "notes", pid: 4242, exit: .signaled(11)).description
/// // "module 'notes' crashed: its process 4242 was killed by signal 11 (SIGSEGV)"
/// ```
package struct ChildCrashError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A stable code for scripts and tests.
  package static let code = "child-crashed"
  package var module: String
  package var pid: Int32
  package var exit: ChildExit
  /// Set when the host killed the child because its health check failed.
  package var hang: HealthFailure?

  package init(module: String, pid: Int32, exit: ChildExit, hang: HealthFailure? = nil) {
    self.module = module
    self.pid = pid
    self.exit = exit
    self.hang = hang
  }

  package var description: String {
    hang == nil ? "module '\(module)' crashed: \(outcome)" : "module '\(module)' \(outcome)"
  }

  /// What happened, without the module's name: `its process 4242 exited with status 3`.
  package var outcome: String {
    if let hang { return "hung (\(hang)); its process \(pid) was killed" }
    let how = exit.description.hasPrefix("killed") ? "was \(exit)" : "\(exit)"
    return "its process \(pid) \(how)"
  }
}
