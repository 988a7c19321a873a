import ApiaryManifest
import Testing

@testable import ApiaryProcess

@Suite struct BackoffTests {
  @Test func doublesFromInitialUpToMaximum() {
    let backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(3))
    #expect(
      (1...6).map { backoff.delay(beforeRestart: $0) } == [
        .milliseconds(500), .seconds(1), .seconds(2), .seconds(3), .seconds(3), .seconds(3),
      ])
  }

  @Test func hugeAttemptsStayAtTheMaximum() {
    let backoff = Backoff(initial: .seconds(1), maximum: .seconds(30))
    #expect(backoff.delay(beforeRestart: Int.max) == .seconds(30))
    #expect(backoff.delay(beforeRestart: 0) == .seconds(1))
    #expect(backoff.delay(beforeRestart: -5) == .seconds(1))
  }

  @Test func maximumBelowInitialIsRaisedToIt() {
    let backoff = Backoff(initial: .seconds(2), maximum: .seconds(1))
    #expect(backoff.delay(beforeRestart: 4) == .seconds(2))
  }

  @Test func readsTheManifestPolicy() {
    let policy = RestartPolicy(policy: .onFailure, initialBackoff: 0.25, maxBackoff: 1)
    #expect(Backoff(policy) == Backoff(initial: .milliseconds(250), maximum: .seconds(1)))
  }
}
