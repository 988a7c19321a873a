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
public struct HealthCheckManifest: Sendable, Hashable {
  public var interval: Double
  public var timeout: Double

  public static let defaultInterval: Double = 5
  public static let defaultTimeout: Double = 2

  public init(
    interval: Double = HealthCheckManifest.defaultInterval,
    timeout: Double = HealthCheckManifest.defaultTimeout
  ) {
    self.interval = interval
    self.timeout = timeout
  }
}
