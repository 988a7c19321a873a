import ApiarySupport

/// Records how long every lifecycle hook and every event dispatch took, measured around the real
/// call (BeeHive's profiler recorded `init` before it ran).
///
/// ```swift
/// let kernel = try Kernel(application: app, modules: modules)
/// try await kernel.boot()
/// for entry in kernel.profiler.slowestFirst { print(entry.subject, entry.phase, entry.duration) }
/// ```
///
/// `ApiaryTooling` adds the reports `apiary run --profile` prints: `table()` and `json()`.
public final class Profiler: Sendable {
  /// One timed call.
  public struct Entry: Sendable, Hashable {
    /// The module name, or the event name for ``LifecyclePhase/event``.
    public let subject: String
    public let phase: LifecyclePhase
    public let duration: Duration
    /// Position in recording order.
    public let sequence: Int
  }

  private let entries = Locked<[Entry]>([])

  package init() {}

  /// Adds one measurement.
  package func record(subject: String, phase: LifecyclePhase, duration: Duration) {
    entries.withLock {
      $0.append(Entry(subject: subject, phase: phase, duration: duration, sequence: $0.count))
    }
  }

  /// Every measurement in recording order.
  public var recorded: [Entry] { entries.withLock { $0 } }

  /// Measurements, slowest first (ties in recording order).
  public var slowestFirst: [Entry] {
    recorded.sorted { ($0.duration, -$0.sequence) > ($1.duration, -$1.sequence) }
  }

  package static func microseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
  }

  /// `1.234 ms`, `56 µs`, `2.5 s`.
  package static func format(_ duration: Duration) -> String {
    let micros = microseconds(duration)
    if micros < 1_000 { return "\(micros) µs" }
    if micros < 1_000_000 { return "\(Double(micros / 10) / 100) ms" }
    return "\(Double(micros / 10_000) / 100) s"
  }
}
