import Synchronization

/// Counts mediator calls and failures per `target.action`, fed by the logging module's
/// interceptor and read by `diagnostics/metrics`.
final class CallMetrics: Sendable {
  private let counts = Mutex<[String: (calls: Int, failures: Int)]>([:])

  func record(_ key: String, failed: Bool) {
    counts.withLock { counts in
      var entry = counts[key, default: (0, 0)]
      entry.calls += 1
      if failed { entry.failures += 1 }
      counts[key] = entry
    }
  }

  /// `["notes.create": ["calls": 2, "failures": 0], ...]`
  var snapshot: [String: any Sendable] {
    counts.withLock { counts in
      counts.mapValues { ["calls": $0.calls, "failures": $0.failures] as [String: any Sendable] }
    }
  }
}
