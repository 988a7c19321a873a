import ApiarySupport

extension ManifestDecoder {
  static let restartKeys = ["policy", "maxRestarts", "backoff"]
  static let backoffKeys = ["initialSeconds", "maxSeconds"]
  static let healthCheckKeys = ["intervalSeconds", "timeoutSeconds"]

  /// A module's `restart` (see ``RestartPolicy``); nil when absent or not an object.
  mutating func restartPolicy(_ fields: Fields) -> RestartPolicy? {
    guard let node = fields["restart"],
      let inner = object(node, fields.child("restart"), keys: Self.restartKeys)
    else { return nil }
    var policy = RestartPolicy(
      policy: enumValue(inner, "policy", RestartPolicy.Policy.self, required: true) ?? .never)
    if let count = int(inner, "maxRestarts"), let countNode = inner["maxRestarts"] {
      if count >= 0 {
        policy.maxRestarts = count
      } else {
        report(
          .invalidValue, inner.child("maxRestarts"), countNode,
          "expected an integer of 0 or more, found \(countNode.foundDescription)")
      }
    }
    if let backoffNode = inner["backoff"],
      let backoff = object(backoffNode, inner.child("backoff"), keys: Self.backoffKeys)
    {
      policy.initialBackoff = seconds(backoff, "initialSeconds") ?? policy.initialBackoff
      let longest = max(policy.maxBackoff, policy.initialBackoff)
      policy.maxBackoff = seconds(backoff, "maxSeconds") ?? longest
      if policy.maxBackoff < policy.initialBackoff, let maxNode = backoff["maxSeconds"] {
        report(
          .invalidValue, backoff.child("maxSeconds"), maxNode,
          "expected at least initialSeconds (\(policy.initialBackoff)), found "
            + maxNode.foundDescription)
        policy.maxBackoff = policy.initialBackoff
      }
    }
    return policy
  }

  /// A module's `healthCheck` (see ``HealthCheckManifest``); nil when absent or not an object.
  mutating func healthCheck(_ fields: Fields) -> HealthCheckManifest? {
    guard let node = fields["healthCheck"],
      let inner = object(node, fields.child("healthCheck"), keys: Self.healthCheckKeys)
    else { return nil }
    return HealthCheckManifest(
      interval: seconds(inner, "intervalSeconds") ?? HealthCheckManifest.defaultInterval,
      timeout: seconds(inner, "timeoutSeconds") ?? HealthCheckManifest.defaultTimeout)
  }
}
