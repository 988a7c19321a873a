import Apiary
import Foundation
import MallocCounter

/// Boot and teardown of 10 to 10,000 generated modules from manifest files on disk, per module,
/// against a hand-written floor: read and parse the same files and create each module by name,
/// with no validation, ordering or hooks.
enum LifecycleSuite {
  static let sizes = [10, 100, 1_000, 10_000]

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
        printError(
          "  generated \(count) module manifests in \(Report.formatNanos(Double(Harness.now() - began)))"
        )
      } catch {
        report.add(Row(section: section, name: "boot", peerName: "-", note: "\(error)"))
        continue
      }
      defer { try? FileManager.default.removeItem(atPath: generated.directory) }
      let catalog = TypeCatalog()
      let floor = measureFloor(generated, catalog: catalog, runs: runs, warmUps: warmUps)
      var note: String?
      var load: [Double] = []
      var start: [Double] = []
      var teardown: [Double] = []
      var allocations: [Double?] = [nil, nil, nil]
      // The last run is not timed: it counts allocations on every thread, at a small cost.
      for run in 0..<(warmUps + runs + 1) {
        do {
          let counting = run == warmUps + runs && apiary_malloc_counting() != 0
          if counting { apiary_malloc_count_all_threads(1) }
          let allocated = apiary_malloc_count_all()
          let began = Harness.now()
          let kernel = try Kernel(manifestsAt: generated.directory, catalog: catalog)
          let planned = Harness.now()
          let allocatedLoading = apiary_malloc_count_all()
          try await kernel.boot()
          let booted = Harness.now()
          let allocatedBooting = apiary_malloc_count_all()
          await kernel.shutdown()
          let stopped = Harness.now()
          let allocatedStopping = apiary_malloc_count_all()
          apiary_malloc_count_all_threads(0)
          let started = await kernel.startedModules.count
          if started != 0 { note = "\(started) modules still listed as started after shutdown" }
          if counting {
            allocations = [
              allocatedLoading - allocated, allocatedBooting - allocatedLoading,
              allocatedStopping - allocatedBooting,
            ].map { Double($0) / Double(count) }
          }
          guard run >= warmUps, !counting else { continue }
          load.append(Double(planned - began))
          start.append(Double(booted - planned))
          teardown.append(Double(stopped - booted))
        } catch {
          note = "\(error)".split(separator: "\n").prefix(3).joined(separator: " ")
          break
        }
      }
      func measurement(_ totals: [Double], _ allocations: Double?) -> Measurement? {
        totals.isEmpty
          ? nil : Measurement(totals: totals, operations: count, allocations: allocations)
      }
      let boot = zip(load, start).map { $0 + $1 }
      let bootAllocations = allocations[0].flatMap { load in allocations[1].map { load + $0 } }
      report.add(
        Row(
          section: section, name: "load+validate+plan, per module",
          apiary: measurement(load, allocations[0]),
          peerName: "read+parse JSON", peer: floor.parse, note: note))
      report.add(
        Row(
          section: section, name: "setUp+start+ready, per module",
          apiary: measurement(start, allocations[1]),
          peerName: "-", note: note))
      report.add(
        Row(
          section: section, name: "boot total, per module",
          apiary: measurement(boot, bootAllocations),
          peerName: "read+parse+create by name", peer: floor.total, note: note))
      report.add(
        Row(
          section: section, name: "teardown, per module",
          apiary: measurement(teardown, allocations[2]),
          peerName: "-", note: note))
    }
  }

  /// The floor: what any manifest-driven boot must do at least.
  private static func measureFloor(
    _ generated: ManifestGenerator.Output, catalog: TypeCatalog, runs: Int, warmUps: Int
  ) -> (parse: Measurement, total: Measurement) {
    let files = generated.names.map { "\(generated.directory)/modules/\($0).json" }
    var parse: [Double] = []
    var total: [Double] = []
    var allocations: (parse: UInt64, total: UInt64) = (0, 0)
    for run in 0..<(warmUps + runs) {
      let allocated = apiary_malloc_count()
      let began = Harness.now()
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
        if let name = object["type"] as? String, let type = catalog.lookup(name) as? any Module.Type
        {
          instances.append(type.init())
        }
      }
      let created = Harness.now()
      allocations = (allocatedParsing - allocated, apiary_malloc_count() - allocated)
      blackHole(instances)
      guard run >= warmUps else { continue }
      parse.append(Double(parsed - began))
      total.append(Double(created - began))
    }
    let count = files.count
    return (
      Measurement(
        totals: parse, operations: count,
        allocations: Harness.allocationsPerOperation(since: 0, Int(allocations.parse), count)),
      Measurement(
        totals: total, operations: count,
        allocations: Harness.allocationsPerOperation(since: 0, Int(allocations.total), count))
    )
  }
}
