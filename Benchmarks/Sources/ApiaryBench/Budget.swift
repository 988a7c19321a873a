/// A performance budget from the issue, judged from this run's rows.
struct Budget: Sendable {
  var name: String
  /// nil when the run has no figure for it (e.g. a case could not run).
  var met: Bool?
  var detail: String

  /// Every budget, judged from `report`'s rows.
  static func judge(_ report: Report) -> [Budget] {
    let sizes = [10, 10_000]
    func container(_ bindings: Int, _ name: String, _ peer: String) -> Row? {
      report.row("container, \(bindings) bindings", name, peer: peer)
    }
    func faster(_ operation: String, than factor: Double) -> Budget {
      let rows = sizes.map { container($0, operation, "Swinject 2.10") }
      return Budget(
        name: "\(operation): ≥ \(Report.fixed(factor, 0))× faster than Swinject",
        met: all(rows) { $0.ratio.map { 1 / $0 >= factor } },
        detail: zip(sizes, rows).map { size, row in
          "\(size) bindings: \(speedup(row))"
        }.joined(separator: "; "))
    }
    var budgets = [faster("singleton resolve", than: 20)]
    let dictionary = sizes.map { container($0, "singleton resolve", "dictionary+lock") }
    budgets.append(
      Budget(
        name: "singleton resolve: within 3× of dictionary+lock",
        met: all(dictionary) { $0.ratio.map { $0 <= 3 } },
        detail: zip(sizes, dictionary).map { "\($0) bindings: \(ratio($1))" }.joined(
          separator: "; ")))
    budgets.append(faster("transient, two deps", than: 5))
    let failed = sizes.map { container($0, "failed resolve", "dictionary+lock") }
    budgets.append(
      Budget(
        name: "failed resolve: < 1 µs",
        met: all(failed) { $0.apiary.map { $0.median < 1_000 } },
        detail: zip(sizes, failed).map { "\($0) bindings: \(median($1))" }.joined(separator: "; ")))
    let perform = report.row("mediator", "perform, cached target")
    budgets.append(
      Budget(
        name: "local perform: < 1 µs and within 3× of a dictionary closure call",
        met: all([perform]) { row in
          guard let apiary = row.apiary, let ratio = row.ratio else { return nil }
          return apiary.median < 1_000 && ratio <= 3
        },
        detail: "\(median(perform)), \(ratio(perform))"))
    let url = report.row("mediator", "open(url), three params")
    budgets.append(
      Budget(
        name: "URL call: < 3 µs", met: all([url]) { $0.apiary.map { $0.median < 3_000 } },
        detail: median(url)))
    let intercepted = report.row("mediator", "perform, interceptor installed")
    budgets.append(
      Budget(
        name: "interceptors ~free when none installed",
        met: all([perform]) { $0.ratio.map { $0 <= 3 } },
        detail:
          "judged by local perform with none installed staying within 3× of the closure call "
          + "(\(ratio(perform))); one installed costs \(median(intercepted)) per call"))
    let boot = [100, 1_000, 10_000].map {
      report.row("lifecycle, \($0) modules", "boot total, per module")
    }
    let growth: Double? = {
      guard let first = boot[0]?.apiary?.median, let last = boot[2]?.apiary?.median, first > 0
      else { return nil }
      return last / first
    }()
    budgets.append(
      Budget(
        name: "boot per module flat from 100 to 10,000 modules (≤ 2× growth)",
        met: growth.map { $0 <= 2 },
        detail: "per module: "
          + zip([100, 1_000, 10_000], boot).map { "\($0): \(median($1))" }
          .joined(separator: ", ") + "; growth \(growth.map { Report.fixed($0, 2) + "×" } ?? "n/a")"
      ))
    let teardown = report.row("lifecycle, 1000 modules", "teardown, per module")
    budgets.append(
      Budget(
        name: "boot of 1,000 modules ≤ 2× listing, reading and parsing their manifests",
        met: all([boot[1]]) { $0.ratio.map { $0 <= 2 } }, detail: ratio(boot[1])))
    budgets.append(
      Budget(
        name: "teardown of 1,000 modules ≤ 0.5× listing, reading and parsing their manifests",
        met: all([teardown]) { $0.ratio.map { $0 <= 0.5 } }, detail: ratio(teardown)))
    let placed = report.row("process", "perform, process-placed target (round trip)")
    budgets.append(
      Budget(
        name: "mediator call to a process-placed target: ≤ 25 µs round trip",
        met: all([placed]) { $0.apiary.map { $0.median <= 25_000 } }, detail: ratio(placed)))
    let flight = report.row("process", "\(ProcessSuite.inFlight) calls in flight, per call")
    budgets.append(
      Budget(
        name: "\(ProcessSuite.inFlight) calls in flight to a process-placed target: pipelined "
          + "(per call below one round trip)",
        met: all([flight, placed]) { _ in
          guard let many = flight?.apiary?.median, let one = placed?.apiary?.median else {
            return nil
          }
          return many < one
        },
        detail: "\(median(flight)) per call in flight vs \(median(placed)) round trip"))
    budgets += pluginBudgets(report)
    let lazyBoot = report.row(LazySuite.section, "boot, 90% lazy, per module")
    budgets.append(
      Budget(
        name: "boot of 10,000 modules, 90% lazy, ≤ 1.3× listing, reading and parsing them",
        met: all([lazyBoot]) { $0.ratio.map { $0 <= 1.3 } }, detail: ratio(lazyBoot)))
    let wake = report.row(LazySuite.section, "first call, waking a module without hooks")
    let added = wake.flatMap { row in
      row.apiary.flatMap { apiary in row.peer.map { apiary.median - $0.median } }
    }
    budgets.append(
      Budget(
        name: "first call that wakes a module without hooks: ≤ 20 µs more than a call",
        met: added.map { $0 <= 20_000 },
        detail: "\(median(wake)) vs \(wake?.peer.map { Report.formatNanos($0.median) } ?? "n/a")"
          + ": \(added.map { Report.formatNanos($0) } ?? "n/a") more"))
    return budgets
  }

  /// The plugin budgets: gate + load within 1.5× of a bare `dlopen` (for the first plugin
  /// of a process, for one after it, and per plugin for 100 loaded at once; the sample plugin's
  /// rows count when it was built), and
  /// a warm call or resolve into a plugin no slower than in process beyond noise (1.15×).
  private static func pluginBudgets(_ report: Report) -> [Budget] {
    func loads(_ names: [String]) -> [Row] {
      names.compactMap { report.row("plugins", $0) }
    }
    func within(_ limit: Double, _ name: String, _ rows: [Row]) -> Budget {
      Budget(
        name: name, met: rows.isEmpty ? nil : all(rows) { $0.ratio.map { $0 <= limit } },
        detail: rows.map { "\($0.name): \(ratio($0))" }.joined(separator: "; "))
    }
    return [
      within(
        1.5, "plugin load after the first: gate + dlopen + entry ≤ 1.5× bare dlopen",
        loads([
          "load a second plugin: gate + dlopen + entry",
          "load the sample NotesPlugin second: gate + dlopen + entry",
        ])),
      within(
        1.5, "first plugin of a process: gate + dlopen + entry ≤ 1.5× bare dlopen",
        loads([
          "load the first plugin: gate + dlopen + entry",
          "load the sample NotesPlugin first: gate + dlopen + entry",
        ])),
      within(
        1.5, "an application's plugins loaded at once: gate + dlopen + entry ≤ 1.5× bare dlopen",
        report.rows.filter {
          $0.section.hasPrefix("plugins, ") && $0.name.hasPrefix("load all at once")
        }),
      within(
        1.15, "warm perform and resolve into a plugin: as in process, within noise (≤ 1.15×)",
        loads(["perform, cached target, into a plugin", "singleton resolve, bound by a plugin"])),
    ]
  }

  /// nil when any row or figure is missing, else whether every row passes.
  private static func all(_ rows: [Row?], _ test: (Row) -> Bool?) -> Bool? {
    var result = true
    for row in rows {
      guard let row, let passed = test(row) else { return nil }
      result = result && passed
    }
    return result
  }

  private static func median(_ row: Row?) -> String {
    row?.apiary.map { Report.formatNanos($0.median) } ?? "n/a"
  }

  private static func ratio(_ row: Row?) -> String {
    guard let row, let ratio = row.ratio else { return "n/a" }
    return "\(median(row)) vs \(row.peer.map { Report.formatNanos($0.median) } ?? "n/a") = "
      + Report.formatRatio(ratio)
  }

  private static func speedup(_ row: Row?) -> String {
    guard let row, let ratio = row.ratio, ratio > 0 else { return "n/a" }
    return "\(median(row)) vs \(row.peer.map { Report.formatNanos($0.median) } ?? "n/a") = "
      + Report.fixed(1 / ratio, 1) + "× faster"
  }
}
