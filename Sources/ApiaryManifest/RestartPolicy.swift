import ApiarySupport

/// What the host does when a module's child process ends on its own (`"placement": "process"`).
///
/// | key | type | default |
/// |---|---|---|
/// | `policy` | `never` or `on-failure` (a signal or a non-zero status) | `never` |
/// | `maxRestarts` | integer ≥ 0, restarts in a row before the module is failed | `3` |
/// | `backoff.initialSeconds` | number > 0, the wait before the first restart | `0.5` |
/// | `backoff.maxSeconds` | number ≥ `initialSeconds`; each wait doubles up to it | `30` |
///
/// ```json
/// "restart": {
///   "policy": "on-failure", "maxRestarts": 5,
///   "backoff": { "initialSeconds": 0.5, "maxSeconds": 10 }
/// }
/// ```
package struct RestartPolicy: Sendable, Hashable {
  package var policy: Policy
  /// Restarts in a row (without a healthy run in between) before the module is failed.
  package var maxRestarts: Int
  /// Seconds before the first restart; each further restart waits twice as long.
  package var initialBackoff: Double
  /// The longest wait between restarts, in seconds.
  package var maxBackoff: Double

  package static let defaultMaxRestarts = 3
  package static let defaultInitialBackoff: Double = 0.5
  package static let defaultMaxBackoff: Double = 30
  /// No restart: a child that ends on its own fails its module.
  package static let never = RestartPolicy(policy: .never)

  package init(
    policy: Policy,
    maxRestarts: Int = RestartPolicy.defaultMaxRestarts,
    initialBackoff: Double = RestartPolicy.defaultInitialBackoff,
    maxBackoff: Double = RestartPolicy.defaultMaxBackoff
  ) {
    self.policy = policy
    self.maxRestarts = maxRestarts
    self.initialBackoff = initialBackoff
    self.maxBackoff = maxBackoff
  }

  package enum Policy: String, Sendable, Hashable, CaseIterable {
    case never
    case onFailure = "on-failure"
  }
}
