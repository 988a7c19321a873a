import ApiaryLifecycle

/// Where a module is in its lifecycle, as the kernel and `apiary run` report it.
package enum ModuleState: Sendable, Hashable, CustomStringConvertible {
  /// In the plan, not yet set up.
  case planned
  /// `setUp` succeeded; waiting to start.
  case setUp
  /// `start` succeeded; the module is in service.
  case running
  /// An optional module whose hook failed; the application goes on without it.
  case failed(phase: LifecyclePhase, reason: String)
  /// A running module that stopped for good after its hooks had all succeeded (its child
  /// process ended and will not come back; `reason` says how, and after how many restarts);
  /// the application goes on without it.
  case failedWhileRunning(reason: String)
  /// Not started because a module it depends on is not running.
  case skipped(reason: String)
  /// Torn down.
  case stopped
  /// A lazy module waiting for its first trigger: not created, set up or started.
  case dormant

  public var description: String {
    switch self {
    case .planned: "planned"
    case .setUp: "set up"
    case .running: "running"
    case .failed(let phase, let reason): "failed in \(phase): \(reason)"
    case .failedWhileRunning(let reason): "failed while running: \(reason)"
    case .skipped(let reason): "skipped: \(reason)"
    case .stopped: "stopped"
    case .dormant: "dormant"
    }
  }
}
