import Synchronization

/// Times lifecycle hooks and event dispatches, measured around the real call (BeeHive's profiler
/// recorded `init` before it ran), when asked to.
///
/// It records nothing until ``isRecording`` is set, and then keeps one aggregate per subject and
/// phase — count, total and slowest — so a host that runs for days stays the same size. At most
/// ``subjectLimit`` subject-phase pairs are kept; later ones are added up under `(other)`.
///
/// ```swift
/// let kernel = try Kernel(application: app, modules: modules)
/// kernel.profiler.isRecording = true
/// try await kernel.boot()
/// print(kernel.profiler.table())      // slowest first
/// print(kernel.profiler.json())       // for tools
/// ```
public final class Profiler: Sendable {
  /// The timed calls of one subject in one phase.
  public struct Entry: Sendable, Hashable {
    /// The module name, or the event name for ``Phase/event``.
    public let subject: String
    public let phase: Phase
    /// How many calls were timed.
    public var count: Int
    /// Their durations added up.
    public var total: Duration
    /// The longest one.
    public var slowest: Duration
    /// Position of the first call in recording order.
    public let sequence: Int
  }

  /// What was timed.
  public enum Phase: String, Sendable, Hashable, CaseIterable {
    case setUp, start, ready, tearDown, event
  }

  /// Subject-phase pairs kept apart; past this, new subjects are recorded as `(other)`.
  public static let subjectLimit = 1_000

  private struct Key: Hashable {
    let subject: String
    let phase: Phase
  }

  private let recording: Atomic<Bool>
  private let entries = Locked<[Key: Entry]>([:])

  public init(recording: Bool = false) {
    self.recording = Atomic(recording)
  }

  /// Whether ``record(subject:phase:duration:)`` keeps anything; off by default.
  public var isRecording: Bool {
    get { recording.load(ordering: .relaxed) }
    set { recording.store(newValue, ordering: .relaxed) }
  }

  /// Adds one measurement, when recording.
  public func record(subject: String, phase: Phase, duration: Duration) {
    guard isRecording else { return }
    entries.withLock { entries in
      var key = Key(subject: subject, phase: phase)
      if entries[key] == nil, entries.count >= Self.subjectLimit {
        key = Key(subject: "(other)", phase: phase)
      }
      if var entry = entries[key] {
        entry.count += 1
        entry.total += duration
        entry.slowest = max(entry.slowest, duration)
        entries[key] = entry
      } else {
        entries[key] = Entry(
          subject: key.subject, phase: phase, count: 1, total: duration, slowest: duration,
          sequence: entries.count)
      }
    }
  }

  /// Every subject and phase in the order first recorded.
  public var recorded: [Entry] {
    entries.withLock { Array($0.values) }.sorted { $0.sequence < $1.sequence }
  }

  /// Every subject and phase, slowest call first (ties in recording order).
  public var slowestFirst: [Entry] {
    recorded.sorted { ($0.slowest, -$0.sequence) > ($1.slowest, -$1.sequence) }
  }

  /// A plain-text table, slowest first.
  public func table() -> String {
    let rows = slowestFirst
    let width = max(7, rows.map(\.subject.count).max() ?? 0)
    var lines = [pad("subject", width) + "  phase     calls     total     slowest"]
    for entry in rows {
      lines.append(
        pad(entry.subject, width) + "  " + pad(entry.phase.rawValue, 8) + "  "
          + pad(String(entry.count), 8) + "  " + pad(Self.format(entry.total), 8) + "  "
          + Self.format(entry.slowest))
    }
    return lines.joined(separator: "\n")
  }

  /// A JSON array of `{"subject", "phase", "count", "microseconds", "slowestMicroseconds"}`
  /// objects (`microseconds` is the total), slowest first.
  public func json() -> String {
    let items = slowestFirst.map { entry in
      "{\"subject\":\(JSONString.quote(entry.subject)),\"phase\":\"\(entry.phase.rawValue)\","
        + "\"count\":\(entry.count),\"microseconds\":\(Self.microseconds(entry.total)),"
        + "\"slowestMicroseconds\":\(Self.microseconds(entry.slowest))}"
    }
    return "[" + items.joined(separator: ",") + "]"
  }

  static func microseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
  }

  /// `1.234 ms`, `56 µs`, `2.5 s`.
  static func format(_ duration: Duration) -> String {
    let micros = microseconds(duration)
    if micros < 1_000 { return "\(micros) µs" }
    if micros < 1_000_000 { return "\(Double(micros / 10) / 100) ms" }
    return "\(Double(micros / 10_000) / 100) s"
  }

  private func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }
}
