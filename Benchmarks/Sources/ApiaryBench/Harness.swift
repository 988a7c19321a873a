import Dispatch
import MallocCounter

/// Keeps `value` alive and opaque to the optimiser, so measured work is never removed.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

/// A small harness: calibrates an iteration count so one sample lasts about `sampleNanos`, warms
/// up, takes `samples` samples and reports median and p90 nanoseconds per operation.
///
/// ```swift
/// let m = Harness.standard.measure { n in for _ in 0..<n { blackHole(table[key]) } }
/// print(m.median, m.p90)
/// ```
struct Harness: Sendable {
  var samples: Int
  var sampleNanos: UInt64
  var warmUpNanos: UInt64
  /// Timed repetitions of one-shot operations (a whole boot), after one untimed warm-up run.
  var oneShotRuns: Int

  static let standard = Harness(
    samples: 41, sampleNanos: 2_000_000, warmUpNanos: 30_000_000, oneShotRuns: 7)
  static let smoke = Harness(samples: 2, sampleNanos: 20_000, warmUpNanos: 0, oneShotRuns: 1)

  /// Measures `body(n)`, which must perform the operation `n` times. Allocations are counted on
  /// the calling thread during one extra run.
  func measure(_ body: (Int) -> Void) -> Measurement {
    withoutActuallyEscaping(body) { measureInterleaved([$0])[0] }
  }

  /// Measures several bodies with their samples taken in turn (a, b, c, a, b, c, ...), so that
  /// load from other processes on a shared machine falls on all of them alike and their ratios
  /// stay meaningful. Each body gets its own iteration count, warm-up and allocation count.
  func measureInterleaved(_ bodies: [(Int) -> Void]) -> [Measurement] {
    let iterations = bodies.map { body in
      var iterations = 1
      while Self.time({ body(iterations) }) < sampleNanos / 2, iterations < 1 << 30 {
        iterations *= 2
      }
      return iterations
    }
    var allocations: [Double?] = []
    for (body, count) in zip(bodies, iterations) {
      let warmUpEnd = Self.now() + warmUpNanos / UInt64(bodies.count)
      while Self.now() < warmUpEnd { body(count) }
      let before = apiary_malloc_count()
      body(count)
      allocations.append(Self.allocationsPerOperation(since: before, nil, count))
    }
    var totals = [[Double]](repeating: [], count: bodies.count)
    for _ in 0..<samples {
      for (index, body) in bodies.enumerated() {
        totals[index].append(Double(Self.time { body(iterations[index]) }))
      }
    }
    return bodies.indices.map {
      Measurement(totals: totals[$0], operations: iterations[$0], allocations: allocations[$0])
    }
  }

  /// Measures asynchronous bodies, each performing its operation `n` times, with samples taken
  /// in turn as in ``measureInterleaved(_:)``. Work hops between threads, so allocations are
  /// counted process-wide during one extra run of each.
  func measureAsyncInterleaved(_ bodies: [(Int) async -> Void]) async -> [Measurement] {
    var iterations: [Int] = []
    var allocations: [Double?] = []
    for body in bodies {
      var count = 1
      while true {
        let start = Self.now()
        await body(count)
        if Self.now() - start >= sampleNanos / 2 || count >= 1 << 30 { break }
        count *= 2
      }
      let warmUpEnd = Self.now() + warmUpNanos / UInt64(bodies.count)
      while Self.now() < warmUpEnd { await body(count) }
      let counted = await Self.countingAllThreads { await body(count) }
      iterations.append(count)
      allocations.append(counted.map { Double($0) / Double(count) })
    }
    var totals = [[Double]](repeating: [], count: bodies.count)
    for _ in 0..<samples {
      for (index, body) in bodies.enumerated() {
        let start = Self.now()
        await body(iterations[index])
        totals[index].append(Double(Self.now() - start))
      }
    }
    return bodies.indices.map {
      Measurement(totals: totals[$0], operations: iterations[$0], allocations: allocations[$0])
    }
  }

  /// Allocations by every thread while `body` runs (nil where they cannot be counted). Only for
  /// work that hops threads: the process-wide counter adds an atomic add to every allocation.
  static func countingAllThreads(_ body: () async -> Void) async -> UInt64? {
    guard apiary_malloc_counting() != 0 else {
      await body()
      return nil
    }
    apiary_malloc_count_all_threads(1)
    let before = apiary_malloc_count_all()
    await body()
    let after = apiary_malloc_count_all()
    apiary_malloc_count_all_threads(0)
    return after &- before
  }

  /// Measures each body run at once on `threads` threads, interleaved like
  /// ``measureInterleaved(_:)``: wall time per operation of one thread, so perfect scaling shows
  /// the single-thread figure. Allocations are not reported.
  func measureConcurrently(threads: Int, _ bodies: [@Sendable (Int) -> Void]) -> [Measurement] {
    let runs = bodies.map { body in
      { (n: Int) in DispatchQueue.concurrentPerform(iterations: threads) { _ in body(n) } }
    }
    return measureInterleaved(runs).map { measurement in
      var measurement = measurement
      measurement.allocations = nil
      return measurement
    }
  }

  /// Allocations on this thread since `before` (or `count` of them, when given) per operation.
  static func allocationsPerOperation(since before: UInt64, _ count: Int? = nil, _ operations: Int)
    -> Double?
  {
    guard apiary_malloc_counting() != 0 else { return nil }
    let allocations = count.map(UInt64.init) ?? (apiary_malloc_count() &- before)
    return Double(allocations) / Double(max(1, operations))
  }

  static func time(_ body: () -> Void) -> UInt64 {
    let start = now()
    body()
    return now() - start
  }

  /// Monotonic nanoseconds.
  static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
