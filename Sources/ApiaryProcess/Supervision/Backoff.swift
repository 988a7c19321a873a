import ApiaryManifest

/// The waits between restarts: exponential from ``initial``, doubling each time, capped at
/// ``maximum``.
///
/// ```swift
/// let backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(3))
/// backoff.delay(beforeRestart: 1)  // 0.5 s
/// backoff.delay(beforeRestart: 3)  // 2 s
/// backoff.delay(beforeRestart: 9)  // 3 s
/// ```
package struct Backoff: Sendable, Hashable {
  package var initial: Duration
  package var maximum: Duration

  package init(initial: Duration, maximum: Duration) {
    self.initial = initial
    self.maximum = max(initial, maximum)
  }

  /// The schedule a manifest's ``RestartPolicy`` asks for.
  package init(_ policy: RestartPolicy) {
    self.init(
      initial: .manifestSeconds(policy.initialBackoff),
      maximum: .manifestSeconds(policy.maxBackoff))
  }

  /// The wait before restart number `attempt` (1 for the first): `initial · 2^(attempt − 1)`,
  /// at most ``maximum``; ``initial`` for an attempt below 1.
  package func delay(beforeRestart attempt: Int) -> Duration {
    var delay = initial
    var doublings = attempt - 1
    while doublings > 0, delay < maximum {
      delay *= 2
      doublings -= 1
    }
    return min(delay, maximum)
  }
}
