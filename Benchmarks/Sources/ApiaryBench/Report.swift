/// Collects rows and budgets and renders them as Markdown.
///
/// ```swift
/// var report = Report()
/// report.add(Row(section: "container", name: "singleton", apiary: a, peerName: "Swinject", peer: s))
/// print(report.markdown())
/// ```
struct Report: Sendable {
  private(set) var rows: [Row] = []
  private(set) var budgets: [Budget] = []

  mutating func add(_ row: Row) {
    rows.append(row)
    let apiary = row.apiary.map(Self.format) ?? "n/a"
    let peer = row.peer.map(Self.format) ?? "n/a"
    let ratio = row.ratio.map(Self.formatRatio) ?? "-"
    printError("  \(row.section) / \(row.name): \(apiary) vs \(row.peerName) \(peer) -> \(ratio)")
  }

  mutating func add(_ budget: Budget) { budgets.append(budget) }

  /// The row named `name` in `section` compared with `peer`.
  func row(_ section: String, _ name: String, peer: String? = nil) -> Row? {
    rows.first { $0.section == section && $0.name == name && (peer == nil || $0.peerName == peer) }
  }

  func markdown() -> String {
    var lines = [
      "| section | case | Apiary median (p90) | allocs | baseline or peer | median (p90) | allocs | ratio |",
      "|---|---|---:|---:|---|---:|---:|---:|",
    ]
    for row in rows {
      let apiary = row.apiary.map(Self.format) ?? "n/a" + (row.note.map { " (\($0))" } ?? "")
      let cells = [
        row.section, row.name, apiary, row.apiary.map(Self.formatAllocations) ?? "",
        row.peerName, row.peer.map(Self.format) ?? "n/a",
        row.peer.map(Self.formatAllocations) ?? "", row.ratio.map(Self.formatRatio) ?? "-",
      ]
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    if !budgets.isEmpty {
      lines += ["", "| budget | verdict | figures |", "|---|---|---|"]
      for budget in budgets {
        let verdict = budget.met.map { $0 ? "met" : "**not met**" } ?? "no figure"
        lines.append("| \(budget.name) | \(verdict) | \(budget.detail) |")
      }
    }
    return lines.joined(separator: "\n")
  }

  static func format(_ measurement: Measurement) -> String {
    "\(formatNanos(measurement.median)) (\(formatNanos(measurement.p90)))"
  }

  static func formatAllocations(_ measurement: Measurement) -> String {
    guard let allocations = measurement.allocations else { return "n/a" }
    switch allocations {
    case 0: return "0"
    case ..<1: return fixed(allocations, 2)
    case ..<10: return fixed(allocations, 1)
    default: return fixed(allocations, 0)
    }
  }

  static func formatRatio(_ ratio: Double) -> String {
    ratio < 0.1 ? fixed(ratio, 3) + "×" : fixed(ratio, 2) + "×"
  }

  static func formatNanos(_ nanos: Double) -> String {
    switch nanos {
    case ..<10: fixed(nanos, 1) + " ns"
    case ..<1_000: fixed(nanos, 0) + " ns"
    case ..<1_000_000: fixed(nanos / 1_000, 2) + " µs"
    case ..<1_000_000_000: fixed(nanos / 1_000_000, 2) + " ms"
    default: fixed(nanos / 1_000_000_000, 2) + " s"
    }
  }

  /// `value` with `digits` decimals, without Foundation's formatters.
  static func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((abs(value) * scale).rounded())
    let whole = scaled / Int(scale)
    let fraction = String(scaled % Int(scale))
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard digits > 0 else { return sign + String(whole) }
    return sign + String(whole) + "."
      + String(repeating: "0", count: digits - fraction.count) + fraction
  }
}

/// Progress goes to standard error so standard output is only the table.
func printError(_ text: String) {
  var standardError = StandardError()
  print(text, to: &standardError)
}

private struct StandardError: TextOutputStream {
  mutating func write(_ string: String) {
    #if canImport(Glibc)
      var text = string
      text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
    #endif
  }
}

#if canImport(Glibc)
  import Glibc
#endif
