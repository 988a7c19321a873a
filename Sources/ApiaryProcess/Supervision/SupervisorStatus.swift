/// One supervised child as `:modules`, `plan` and `inspect` show it.
///
/// ```swift
/// SupervisorStatus(state: .running, pid: 4242, restarts: 1, lastExit: .signaled(11)).description
/// // "running, pid 4242, 1 restart, last exit: killed by signal 11 (SIGSEGV)"
/// SupervisorStatus(state: .restarting, restarts: 1, lastExit: .exited(3)).description
/// // "restarting, restart 1 under way, last exit: exited with status 3"
/// SupervisorStatus(state: .running, pid: 4242, ending: "broke the wire protocol (…)").description
/// // "ending, pid 4242, 0 restarts, because it broke the wire protocol (…)"
/// ```
package struct SupervisorStatus: Sendable, Hashable, CustomStringConvertible {
  package enum State: String, Sendable, Hashable, CustomStringConvertible {
    /// Not started yet, or its first start is under way.
    case starting
    case running
    /// Waiting out a backoff, or starting again.
    case restarting
    /// Ended on its own and not restarted (policy, or restarts used up).
    case failed
    /// Stopped by the host.
    case stopped

    package var description: String { rawValue }
  }

  package var state: State
  /// The running child's pid; nil while none runs.
  package var pid: Int32?
  /// Automatic restarts since the first start or the last `:restart`, the one under way
  /// included, whether or not its child came up: the count `restart.maxRestarts` bounds. The
  /// host's `restarting 'notes' in 0.5 seconds (restart 1 of 3)` and `running again: pid 4250
  /// (restart 1)` lines show this number too.
  package var restarts: Int
  package var lastExit: ChildExit?
  /// Why the host is ending the running child (`broke the wire protocol (…)`), until it has
  /// ended; shown as the state `ending`.
  package var ending: String?

  package init(
    state: State, pid: Int32? = nil, restarts: Int = 0, lastExit: ChildExit? = nil,
    ending: String? = nil
  ) {
    self.state = state
    self.pid = pid
    self.restarts = restarts
    self.lastExit = lastExit
    self.ending = ending
  }

  package var description: String {
    var parts = [ending == nil ? state.rawValue : "ending"]
    if let pid { parts.append("pid \(pid)") }
    switch (state, restarts) {
    case (.restarting, 0): break  // a `:restart`, which starts the count again
    case (.restarting, _): parts.append("restart \(restarts) under way")
    case (_, 1): parts.append("1 restart")
    default: parts.append("\(restarts) restarts")
    }
    if let lastExit { parts.append("last exit: \(lastExit)") }
    if let ending { parts.append("because it \(ending)") }
    return parts.joined(separator: ", ")
  }
}
