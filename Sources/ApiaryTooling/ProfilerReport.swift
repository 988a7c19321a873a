import Apiary
import ApiarySupport

/// The profiler's reports for people and tools (`apiary run --profile`, `--profile-json`).
extension Profiler {
  /// A plain-text table, slowest first: calls, total and slowest per subject and phase; then
  /// each lazy module that woke, with how long it took and what woke it.
  public func table() -> String {
    let rows = slowestFirst
    let width = max(7, rows.map(\.subject.count).max() ?? 0)
    var lines = ["subject".padding(width) + "  phase     calls     total     slowest"]
    for entry in rows {
      lines.append(
        entry.subject.padding(width) + "  " + entry.phase.rawValue.padding(8) + "  "
          + String(entry.count).padding(8) + "  " + Self.format(entry.total).padding(8) + "  "
          + Self.format(entry.slowest))
    }
    let woken = activations
    if !woken.isEmpty {
      let width = max(6, woken.map(\.module.count).max() ?? 0)
      lines += ["", "module".padding(width) + "  woke in   woken by"]
      for wake in woken {
        lines.append(
          wake.module.padding(width) + "  "
            + (wake.succeeded ? Self.format(wake.duration) : "FAILED").padding(8) + "  "
            + wake.trigger)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// A JSON array of `{"subject", "phase", "count", "microseconds", "totalMicroseconds"}`
  /// objects (`microseconds` is the slowest call), slowest first.
  public func json() -> String {
    let items = slowestFirst.map { entry in
      "{\"subject\":\(JSONWriter.quote(entry.subject)),\"phase\":\"\(entry.phase.rawValue)\","
        + "\"count\":\(entry.count),\"microseconds\":\(Self.microseconds(entry.slowest)),"
        + "\"totalMicroseconds\":\(Self.microseconds(entry.total))}"
    }
    return "[" + items.joined(separator: ",") + "]"
  }
}
