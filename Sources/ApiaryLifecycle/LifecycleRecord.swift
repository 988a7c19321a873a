import ApiarySupport

/// One step of the lifecycle as it happens, for timelines and logs (`apiary run` prints them).
public struct LifecycleRecord: Sendable, CustomStringConvertible {
  public enum Outcome: Sendable {
    case succeeded
    case failed(any Error)
    case skipped(String)
  }

  public let module: String
  public let phase: LifecyclePhase
  public let outcome: Outcome
  /// How long the hook ran (zero when skipped).
  public let duration: Duration
  /// Time since the kernel began booting.
  public let elapsed: Duration
  /// What woke a lazy module, for ``LifecyclePhase/activate``: `call to target 'search'`.
  public let trigger: String?

  package init(
    module: String, phase: LifecyclePhase, outcome: Outcome, duration: Duration,
    elapsed: Duration, trigger: String? = nil
  ) {
    self.module = module
    self.phase = phase
    self.outcome = outcome
    self.duration = duration
    self.elapsed = elapsed
    self.trigger = trigger
  }

  public var description: String {
    let stamp = Profiler.format(elapsed)
    let head =
      String(repeating: " ", count: max(0, 10 - stamp.count)) + stamp + "  "
      + module.padding(12) + " " + phase.rawValue.padding(8) + " "
    let woken = trigger.map { ", woken by \($0)" } ?? ""
    switch outcome {
    case .succeeded: return head + "ok (\(Profiler.format(duration))\(woken))"
    case .failed(let error): return head + "FAILED\(woken): \(error)"
    case .skipped(let reason): return head + "skipped: \(reason)"
    }
  }
}
