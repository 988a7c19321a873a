import ApiarySupport
import Dispatch

/// A child's health check, on a thread of its own: waits `interval` between pings and pings
/// with a blocking call bounded by `timeout`, so a hung child is reported on time even while
/// synchronous callers hold every thread of Swift's pool.
///
/// `ping` gets the timeout in seconds and throws ``CallTimedOut`` past it. `report` runs at
/// most once, on the watch's thread, and never once ``cancel()`` has returned.
///
/// ```swift
/// let watch = HealthWatch.start(interval: .seconds(5), timeout: .seconds(2),
///   ping: { seconds in try connection.callBlocking("ping", seconds: seconds) },
///   report: { failure in child.send(SIGKILL) })
/// watch.cancel()  // the child ends: no report from now on
/// ```
package final class HealthWatch: Sendable {
  private let cancelled = Locked(false)
  private let wake = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)

  private init() {}

  package static func start(
    interval: Duration, timeout: Duration,
    ping: @escaping @Sendable (Double) throws -> Void,
    report: @escaping @Sendable (HealthFailure) -> Void
  ) -> HealthWatch {
    let watch = HealthWatch()
    DetachedThread.start(name: "apiary.health-check") {
      let failure = watch.watch(interval: interval, timeout: timeout, ping: ping)
      watch.cancelled.withLock { cancelled in
        guard !cancelled, let failure else { return }
        cancelled = true
        report(failure)
      }
      watch.finished.signal()
    }
    return watch
  }

  /// Stops the watch: no report from now on, and a wait between pings ends at once.
  package func cancel() {
    cancelled.withLock { $0 = true }
    wake.signal()
  }

  /// Blocks until the watch's thread has ended (its report, if any, made); for tests.
  package func waitUntilEnded() {
    finished.wait()
  }

  /// Pings until one fails and returns how; nil when cancelled first.
  private func watch(
    interval: Duration, timeout: Duration, ping: @Sendable (Double) throws -> Void
  ) -> HealthFailure? {
    let (pause, limit) = (interval.inSeconds, timeout.inSeconds)
    while wake.wait(timeout: .now() + pause) == .timedOut {
      do {
        try ping(limit)
      } catch is CallTimedOut {
        return .timedOut(timeout)
      } catch {
        return .failed(String(describing: error))
      }
    }
    return nil
  }
}
