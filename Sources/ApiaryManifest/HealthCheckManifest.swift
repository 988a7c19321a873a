import ApiarySupport

/// How often the host pings a module's child process, and how long an answer may take before
/// the child counts as hung and is killed (then restarted per its ``RestartPolicy``).
///
/// | key | type | default |
/// |---|---|---|
/// | `intervalSeconds` | number > 0, between the end of one ping and the next | `5` |
/// | `timeoutSeconds` | number > 0, the longest a ping may take | `2` |
///
/// ```json
/// "healthCheck": { "intervalSeconds": 5, "timeoutSeconds": 2 }
/// ```
package struct HealthCheckManifest: Sendable, Hashable {
  package var interval: Double
  package var timeout: Double

  package static let defaultInterval: Double = 5
  package static let defaultTimeout: Double = 2

  package init(
    interval: Double = HealthCheckManifest.defaultInterval,
    timeout: Double = HealthCheckManifest.defaultTimeout
  ) {
    self.interval = interval
    self.timeout = timeout
  }
}
