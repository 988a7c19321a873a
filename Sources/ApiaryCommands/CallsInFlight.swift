import Apiary
import Synchronization

/// The calls `apiary run` has in flight — each one's line and when it started — so the host
/// can say what it waits for.
///
/// ```swift
/// let id = calls.begin("notebook://notes/list")
/// calls.summary(in: kernel.mediator)  // "1 call in flight (its time limit ends in 29.9 s)"
/// calls.end(id)
/// ```
final class CallsInFlight: Sendable {
  private struct Call {
    let id: Int
    let line: String
    let started: ContinuousClock.Instant
  }

  /// At most ``SessionLoop/concurrentCalls`` at a time: a list.
  private let state = Mutex<(next: Int, calls: [Call])>((0, []))

  /// Records that the call on `line` started; returns its id for ``end(_:)``.
  func begin(_ line: String) -> Int {
    state.withLock { state in
      state.next += 1
      state.calls.append(Call(id: state.next, line: line, started: .now))
      return state.next
    }
  }

  func end(_ id: Int) {
    state.withLock { $0.calls.removeAll { $0.id == id } }
  }

  /// `2 calls in flight (their time limits end within 27.9 s)`; nil when none is. A URL's
  /// time limit is its action's `timeout`, from when the call started; `:post` and `:resolve`
  /// have none of their own, so they count, but add no time.
  func summary(in mediator: Mediator) -> String? {
    let calls = state.withLock { $0.calls }
    guard !calls.isEmpty else { return nil }
    let targets = mediator.targets()
    let now = ContinuousClock.now
    let left = calls.compactMap { call -> Double? in
      guard case .success(let action) = mediator.canOpen(call.line.trimmingWhitespace()),
        let limit = targets.first(where: { $0.name == action.target })?.actions
          .first(where: { $0.name == action.action })?.timeout
      else { return nil }
      return limit - Self.seconds(now - call.started)
    }
    let one = calls.count == 1
    var text = "\(calls.count) call\(one ? "" : "s") in flight"
    if let longest = left.max() {
      text += one ? " (its time limit ends in " : " (their time limits end within "
      text += Self.text(seconds: longest) + " s)"
    }
    return text
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// `seconds` with one decimal, rounded up: `27.9`; `0.0` once it has passed. A limit a
  /// manifest made huge (`1e300`) shows as it is.
  private static func text(seconds: Double) -> String {
    guard seconds < 1e9 else { return "\(seconds)" }
    let tenths = Int((max(0, seconds) * 10).rounded(.up))
    return "\(tenths / 10).\(tenths % 10)"
  }
}
