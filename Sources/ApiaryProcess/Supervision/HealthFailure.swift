/// Why a health check gave up on a child.
package enum HealthFailure: Sendable, Hashable, CustomStringConvertible {
  /// No answer within the timeout.
  case timedOut(Duration)
  /// The ping failed (the wire's error, described).
  case failed(String)

  package var description: String {
    switch self {
    case .timedOut(let timeout): "no answer to a health check ping within \(timeout)"
    case .failed(let reason): "a health check ping failed: \(reason)"
    }
  }
}
