import ApiarySupport
import Dispatch
import Testing

@testable import ApiaryProcess

/// The health check on a thread of its own: what it reports, and that a cancelled watch reports
/// nothing. Pings without a pause between them; gates decide the order, not the clock.
@Suite struct HealthWatchTests {
  /// Pings that answer keep the watch going; the third times out and is reported as such.
  @Test func reportsThePingThatTimedOut() async {
    let pings = Locked<[Double]>([])
    let reported = Gate()
    let failure = Locked<HealthFailure?>(nil)
    let watch = HealthWatch.start(
      interval: .zero, timeout: .seconds(2),
      ping: { seconds in
        let count = pings.withLock {
          $0.append(seconds)
          return $0.count
        }
        if count == 3 { throw CallTimedOut(method: "ping", seconds: seconds) }
      },
      report: { found in
        failure.withLock { $0 = found }
        reported.open()
      })
    await reported.wait()
    #expect(failure.withLock { $0 } == .timedOut(.seconds(2)))
    #expect(pings.withLock { $0 } == [2, 2, 2])
    watch.cancel()
  }

  @Test func aFailingPingIsReported() async {
    struct Broken: Error, CustomStringConvertible {
      var description: String { "the wire broke" }
    }
    let reported = Gate()
    let failure = Locked<HealthFailure?>(nil)
    _ = HealthWatch.start(
      interval: .zero, timeout: .seconds(2), ping: { _ in throw Broken() },
      report: { found in
        failure.withLock { $0 = found }
        reported.open()
      })
    await reported.wait()
    #expect(failure.withLock { $0 } == .failed("the wire broke"))
    #expect(failure.withLock { $0 }?.description == "a health check ping failed: the wire broke")
  }

  /// Cancelled while its ping is in flight (the host stops the child, which fails the ping):
  /// no report, and no further ping.
  @Test func aCancelledWatchReportsNothing() async {
    let pinging = Gate()
    let cancelled = DispatchSemaphore(value: 0)
    let pings = Locked(0)
    let reports = Locked(0)
    let watch = HealthWatch.start(
      interval: .zero, timeout: .seconds(2),
      ping: { seconds in
        pings.withLock { $0 += 1 }
        pinging.open()
        cancelled.wait()
        throw CallTimedOut(method: "ping", seconds: seconds)
      },
      report: { _ in reports.withLock { $0 += 1 } })
    await pinging.wait()
    watch.cancel()
    cancelled.signal()
    watch.waitUntilEnded()
    #expect(reports.withLock { $0 } == 0)
    #expect(pings.withLock { $0 } == 1)
  }
}
