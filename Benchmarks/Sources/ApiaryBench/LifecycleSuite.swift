import Apiary
import Foundation
import MallocCounter

/// Boot and teardown of 10 to 10,000 generated modules from manifest files on disk, per module,
/// against a hand-written floor: list the directory, read and parse the same files and create
/// each module by name, with no validation, ordering or hooks. Boot and teardown are both
/// compared with that floor. Floor and kernel runs alternate, so load from other processes falls
/// on both alike.
enum LifecycleSuite {
  static let sizes = [10, 100, 1_000, 10_000]

  /// Per-run totals in nanoseconds, and allocations per module from the counting run.
  private struct Series {
    var totals: [Double] = []
    var allocations: Double?

    func measurement(_ modules: Int) -> Measurement? {
      totals.isEmpty
        ? nil : Measurement(totals: totals, operations: modules, allocations: allocations)
    }
  }

  static func run(_ harness: Harness, sizes: [Int], into report: inout Report) async {
    for count in sizes where count > 0 {
      let section = "lifecycle, \(count) modules"
      let smoke = harness.samples <= 2
      let runs = smoke ? 1 : max(harness.oneShotRuns, min(100, 20_000 / count))
      let warmUps = smoke ? 0 : 1
      let generated: ManifestGenerator.Output
      let began = Harness.now()
      do {
        generated = try ManifestGenerator(count: count).write()
      } catch {
        report.add(Row(section: section, name: "boot", peerName: "-", note: "\(error)"))
        continue
      }
      printError(
        "  generated \(count) module manifests in "
          + Report.formatNanos(Double(Harness.now() - began)))
      defer { try? FileManager.default.removeItem(atPath: generated.directory) }
      let catalog = TypeCatalog()
      let modules = "\(generated.directory)/modules"
      var (parse, floor, load, start, boot, teardown) = (
        Series(), Series(), Series(), Series(), Series(), Series()
      )
      var note: String?
      // The last run is not timed: it counts allocations on every thread, at a small cost.
      for run in 0..<(warmUps + runs + 1) {
        let counting = run == warmUps + runs
        let timed = run >= warmUps && !counting
        let floorRun = Self.floor(modules, catalog: catalog)
        if timed {
          parse.totals.append(Double(floorRun.parse))
          floor.totals.append(Double(floorRun.total))
        } else if counting {
          parse.allocations = floorRun.parseAllocations.map { Double($0) / Double(count) }
          floor.allocations = floorRun.totalAllocations.map { Double($0) / Double(count) }
        }
        do {
          let kernelRun = try await Self.kernel(generated.directory, catalog, counting: counting)
          if kernelRun.stillStarted != 0 {
            note = "\(kernelRun.stillStarted) modules still listed as started after shutdown"
          }
          if timed {
            load.totals.append(Double(kernelRun.times[0]))
            start.totals.append(Double(kernelRun.times[1]))
            boot.totals.append(Double(kernelRun.times[0] + kernelRun.times[1]))
            teardown.totals.append(Double(kernelRun.times[2]))
          } else if counting, let allocations = kernelRun.allocations {
            let perModule = allocations.map { Double($0) / Double(count) }
            load.allocations = perModule[0]
            start.allocations = perModule[1]
            boot.allocations = perModule[0] + perModule[1]
            teardown.allocations = perModule[2]
          }
        } catch {
          note = "\(error)".split(separator: "\n").prefix(3).joined(separator: " ")
          break
        }
      }
      let rows: [(String, Series, String, Series?)] = [
        ("load+validate+plan, per module", load, "list+read+parse JSON", parse),
        ("setUp+start+ready, per module", start, "-", nil),
        ("boot total, per module", boot, Self.floorName, floor),
        ("teardown, per module", teardown, Self.floorName, floor),
      ]
      for (name, series, peerName, peer) in rows {
        report.add(
          Row(
            section: section, name: name, apiary: series.measurement(count), peerName: peerName,
            peer: peer?.measurement(count), note: note))
      }
    }
  }

  /// One kernel run: times of load+validate+plan, setUp+start+ready and teardown, and, when
  /// `counting`, the allocations of each on every thread.
  private static func kernel(_ directory: String, _ catalog: TypeCatalog, counting: Bool)
    async throws -> (times: [UInt64], allocations: [UInt64]?, stillStarted: Int)
  {
    let count = counting && apiary_malloc_counting() != 0
    if count { apiary_malloc_count_all_threads(1) }
    defer { apiary_malloc_count_all_threads(0) }
    let allocated = apiary_malloc_count_all()
    let began = Harness.now()
    let kernel = try Kernel(manifestsAt: directory, catalog: catalog)
    let planned = Harness.now()
    let allocatedLoading = apiary_malloc_count_all()
    try await kernel.boot()
    let booted = Harness.now()
    let allocatedBooting = apiary_malloc_count_all()
    await kernel.shutdown()
    let stopped = Harness.now()
    let allocatedStopping = apiary_malloc_count_all()
    apiary_malloc_count_all_threads(0)
    return (
      [planned - began, booted - planned, stopped - booted],
      count
        ? [
          allocatedLoading - allocated, allocatedBooting - allocatedLoading,
          allocatedStopping - allocatedBooting,
        ] : nil,
      await kernel.startedModules.count
    )
  }

  /// What the boot and teardown rows are compared with.
  static let floorName = "list+read+parse+create by name"

  /// One floor run: what any manifest-driven boot must do at least. Nanoseconds to list the
  /// directory, read and parse the files, and in all (with creating the modules), and this
  /// thread's allocations.
  static func floor(_ directory: String, catalog: TypeCatalog) -> (
    parse: UInt64, total: UInt64, parseAllocations: UInt64?, totalAllocations: UInt64?
  ) {
    let allocated = apiary_malloc_count()
    let began = Harness.now()
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    let files = names.filter { $0.hasSuffix(".json") }.sorted().map { "\(directory)/\($0)" }
    var objects: [[String: Any]] = []
    objects.reserveCapacity(files.count)
    for file in files {
      guard let data = FileManager.default.contents(atPath: file),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let modules = object["modules"] as? [[String: Any]]
      else { continue }
      objects += modules
    }
    let parsed = Harness.now()
    let allocatedParsing = apiary_malloc_count()
    var instances: [any Module] = []
    instances.reserveCapacity(objects.count)
    for object in objects {
      if let name = object["type"] as? String, let type = catalog.lookup(name) as? any Module.Type {
        instances.append(type.init())
      }
    }
    let created = Harness.now()
    let allocatedCreating = apiary_malloc_count()
    blackHole(instances)
    let counted = apiary_malloc_counting() != 0
    return (
      parsed - began, created - began,
      counted ? allocatedParsing - allocated : nil, counted ? allocatedCreating - allocated : nil
    )
  }
}
