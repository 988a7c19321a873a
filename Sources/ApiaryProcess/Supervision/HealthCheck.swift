import ApiaryManifest
import ApiarySupport

/// Pings a child every ``interval`` until a ping throws or takes longer than ``timeout``, and
/// returns that failure; the caller (the ``Supervisor``) then kills the child.
///
/// The ping runs in its own task, raced against a timer, so a ping that never returns — the
/// child hangs and its answer never comes — still ends the check. Waiting goes through `sleep`,
/// which tests replace with gates.
///
/// ```swift
/// let check = HealthCheck(interval: .seconds(5), timeout: .seconds(2)) { try await wire.ping() }
/// if let failure = await check.run() { child.send(SIGKILL) }
/// ```
package struct HealthCheck: Sendable {
  package var interval: Duration
  package var timeout: Duration
  package let ping: @Sendable () async throws -> Void
  package let sleep: @Sendable (Duration) async throws -> Void

  package init(
    interval: Duration,
    timeout: Duration,
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
    ping: @escaping @Sendable () async throws -> Void
  ) {
    self.interval = interval
    self.timeout = timeout
    self.sleep = sleep
    self.ping = ping
  }

  /// The check a manifest's ``HealthCheckManifest`` asks for.
  package init(
    _ manifest: HealthCheckManifest,
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
    ping: @escaping @Sendable () async throws -> Void
  ) {
    self.init(
      interval: .manifestSeconds(manifest.interval), timeout: .manifestSeconds(manifest.timeout),
      sleep: sleep,
      ping: ping)
  }

  /// Pings until one fails and returns how; nil when the task is cancelled first.
  package func run() async -> HealthFailure? {
    while !Task.isCancelled {
      do { try await sleep(interval) } catch { return nil }
      if Task.isCancelled { return nil }
      if let failure = await pingOnce() { return Task.isCancelled ? nil : failure }
    }
    return nil
  }

  /// One ping raced against ``timeout``: nil when it answered in time.
  package func pingOnce() async -> HealthFailure? {
    let tasks = Locked<[Task<Void, Never>]>([])
    return await withTaskCancellationHandler {
      let failure = await withCheckedContinuation { continuation in
        let slot = Locked<CheckedContinuation<HealthFailure?, Never>?>(continuation)
        let finish: @Sendable (HealthFailure?) -> Void = { failure in
          slot.withLock { pending in
            defer { pending = nil }
            return pending
          }?.resume(returning: failure)
        }
        let pinger = Task {
          do {
            try await ping()
            finish(nil)
          } catch {
            finish(.failed(String(describing: error)))
          }
        }
        let timer = Task { [timeout, sleep] in
          do {
            try await sleep(timeout)
            finish(.timedOut(timeout))
          } catch {
            finish(nil)  // cancelled: the check is over either way
          }
        }
        tasks.withLock { $0 = [pinger, timer] }
      }
      for task in tasks.withLock({ $0 }) { task.cancel() }
      return failure
    } onCancel: {
      for task in tasks.withLock({ $0 }) { task.cancel() }
    }
  }
}

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
