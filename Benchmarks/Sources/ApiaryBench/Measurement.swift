/// Nanoseconds per operation (median and 90th percentile over samples) and heap allocations per
/// operation on the measuring thread (nil where they cannot be counted).
struct Measurement: Sendable {
  var median: Double
  var p90: Double
  var allocations: Double?
  var samples: Int

  /// From per-sample totals in nanoseconds, each covering `operations` operations.
  init(totals: [Double], operations: Int, allocations: Double?) {
    let perOperation = totals.map { $0 / Double(max(1, operations)) }.sorted()
    self.median = Self.percentile(perOperation, 0.5)
    self.p90 = Self.percentile(perOperation, 0.9)
    self.allocations = allocations
    self.samples = perOperation.count
  }

  /// Nearest-rank percentile of sorted values.
  static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }

  /// The same figures divided by `count`, e.g. a whole boot per module.
  func per(_ count: Int) -> Measurement {
    var copy = self
    copy.median /= Double(count)
    copy.p90 /= Double(count)
    copy.allocations = allocations.map { $0 / Double(count) }
    return copy
  }
}
