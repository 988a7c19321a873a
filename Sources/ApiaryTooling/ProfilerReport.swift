import Apiary
import ApiarySupport

/// The profiler's reports for people and tools (`apiary run --profile`, `--profile-json`).
extension Profiler {
  /// A plain-text table, slowest first.
  public func table() -> String {
    let rows = slowestFirst
    let width = max(7, rows.map(\.subject.count).max() ?? 0)
    var lines = ["subject".padding(width) + "  phase     duration"]
    for entry in rows {
      lines.append(
        entry.subject.padding(width) + "  " + entry.phase.rawValue.padding(8) + "  "
          + Self.format(entry.duration))
    }
    return lines.joined(separator: "\n")
  }

  /// A JSON array of `{"subject", "phase", "microseconds"}` objects, slowest first.
  public func json() -> String {
    let items = slowestFirst.map { entry in
      "{\"subject\":\(JSONWriter.quote(entry.subject)),\"phase\":\"\(entry.phase.rawValue)\","
        + "\"microseconds\":\(Self.microseconds(entry.duration))}"
    }
    return "[" + items.joined(separator: ",") + "]"
  }
}
