import ApiarySupport
import Synchronization

/// Times lifecycle hooks and event dispatches, measured around the real call (BeeHive's profiler
/// recorded `init` before it ran), when asked to.
///
/// It records nothing until ``isRecording`` is set, and then keeps one aggregate per subject and
/// phase — count, total and slowest — so a host that runs for days stays the same size. At most
/// ``subjectLimit`` subject-phase pairs are kept apart; later ones are added up under `(other)`.
///
/// ```swift
/// let kernel = try Kernel(application: app, modules: modules)
/// kernel.profiler.isRecording = true
/// try await kernel.boot()
/// for entry in kernel.profiler.slowestFirst { print(entry.subject, entry.phase, entry.slowest) }
/// ```
///
/// `ApiaryTooling` adds the reports `apiary run --profile` prints: `table()` and `json()`.
package final class Profiler: Sendable {
  /// The timed calls of one subject in one phase.
  public struct Entry: Sendable, Hashable {
    /// The module name, or the event name for ``LifecyclePhase/event``.
    public let subject: String
    public let phase: LifecyclePhase
    /// How many calls were timed.
    public internal(set) var count: Int
    /// Their durations added up.
    public internal(set) var total: Duration
    /// The longest one.
    public internal(set) var slowest: Duration
    /// Position of the first call in recording order.
    public let sequence: Int
  }

  /// One lazy module waking: what woke it and how long its `setUp`, `start` and `ready` took.
  public struct Activation: Sendable, Hashable {
    public let module: String
    /// What woke it, as ``LifecycleRecord/trigger`` says it: `call to target 'search'`.
    public let trigger: String
    public let duration: Duration
    /// Whether it woke; false when a hook failed and the trigger got the error.
    public let succeeded: Bool
  }

  /// Subject-phase pairs kept apart; past this, new subjects are recorded as `(other)`.
  public static let subjectLimit = 1_000

  private let recording: Atomic<Bool>
  /// By subject, then phase.
  private let entries = Locked<[NamePair: Entry]>([:])
  private let wakes = Locked<[Activation]>([])

  package init(recording: Bool = false) {
    self.recording = Atomic(recording)
  }

  /// Whether measurements are kept; off by default.
  public var isRecording: Bool {
    get { recording.load(ordering: .relaxed) }
    set { recording.store(newValue, ordering: .relaxed) }
  }

  /// Adds one measurement, when recording.
  package func record(subject: String, phase: LifecyclePhase, duration: Duration) {
    guard isRecording else { return }
    entries.withLock { entries in
      var key = NamePair(subject, phase.rawValue)
      if entries[key] == nil, entries.count >= Self.subjectLimit {
        key = NamePair("(other)", phase.rawValue)
      }
      if var entry = entries[key] {
        entry.count += 1
        entry.total += duration
        entry.slowest = max(entry.slowest, duration)
        entries[key] = entry
      } else {
        entries[key] = Entry(
          subject: key.first, phase: phase, count: 1, total: duration, slowest: duration,
          sequence: entries.count)
      }
    }
  }

  /// Adds one activation, when recording; at most ``subjectLimit`` are kept.
  package func recordActivation(
    module: String, trigger: String, duration: Duration, succeeded: Bool
  ) {
    guard isRecording else { return }
    wakes.withLock { wakes in
      guard wakes.count < Self.subjectLimit else { return }
      wakes.append(
        Activation(module: module, trigger: trigger, duration: duration, succeeded: succeeded))
    }
  }

  /// Every lazy module that woke while recording, in the order they woke.
  public var activations: [Activation] { wakes.withLock { $0 } }

  /// Every subject and phase in the order first recorded.
  public var recorded: [Entry] {
    entries.withLock { Array($0.values) }.sorted { $0.sequence < $1.sequence }
  }

  /// Every subject and phase, slowest call first (ties in recording order).
  public var slowestFirst: [Entry] {
    recorded.sorted { ($0.slowest, -$0.sequence) > ($1.slowest, -$1.sequence) }
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
