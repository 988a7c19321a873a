import ApiarySupport
import Testing

@testable import ApiaryProcess

/// The health check's timing goes through a recording sleeper, so which of ping and timer wins
/// is decided by gates, never by the clock.
@Suite struct HealthCheckTests {
  /// Pings that answer keep the check going; the third ping's timer runs out first.
  @Test func reportsTheFirstPingWithoutAnswer() async {
    let pings = Locked(0)
    let timeouts = Locked(0)
    let sleeper = RecordingSleeper { duration in
      // Interval waits return at once; the first two timeouts wait until their ping has
      // answered (and cancelled them), the third runs out at once.
      guard duration == .seconds(2) else { return }
      let count = timeouts.withLock {
        $0 += 1
        return $0
      }
      if count < 3 { try await untilCancelled() }
    }
    let check = HealthCheck(interval: .seconds(5), timeout: .seconds(2), sleep: sleeper.sleep) {
      let count = pings.withLock {
        $0 += 1
        return $0
      }
      if count == 3 { try await untilCancelled() }
    }
    #expect(await check.run() == .timedOut(.seconds(2)))
    #expect(pings.withLock { $0 } == 3)
    #expect(sleeper.requests.withLock { $0 }.filter { $0 == .seconds(5) }.count == 3)
  }

  @Test func aFailingPingIsReported() async {
    struct Broken: Error, CustomStringConvertible {
      var description: String { "broken pipe" }
    }
    let sleeper = RecordingSleeper { duration in
      if duration == .seconds(2) { try await untilCancelled() }
    }
    let check = HealthCheck(interval: .seconds(5), timeout: .seconds(2), sleep: sleeper.sleep) {
      throw Broken()
    }
    let failure = await check.run()
    #expect(failure == .failed("broken pipe"))
    #expect(failure?.description == "a health check ping failed: broken pipe")
  }

  /// Cancelling the check (the child stopped) ends it without a report, even mid-ping.
  @Test func cancellationEndsWithoutReport() async {
    let pinging = Gate()
    let sleeper = RecordingSleeper { duration in
      if duration == .seconds(2) { try await untilCancelled() }
    }
    let check = HealthCheck(interval: .seconds(5), timeout: .seconds(2), sleep: sleeper.sleep) {
      pinging.open()
      try await untilCancelled()
    }
    let run = Task { await check.run() }
    await pinging.wait()
    run.cancel()
    #expect(await run.value == nil)
  }
}
