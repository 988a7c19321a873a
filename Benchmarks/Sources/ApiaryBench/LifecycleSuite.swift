import Apiary
import Foundation

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
      for run in 0..<(warmUps + runs) {
        do {
          let began = Harness.now()
          let kernel = try Kernel(manifestsAt: generated.directory, catalog: catalog)
          let planned = Harness.now()
          try await kernel.boot()
          let booted = Harness.now()
          await kernel.shutdown()
          let stopped = Harness.now()
          let started = await kernel.startedModules.count
          if started != 0 { note = "\(started) modules still listed as started after shutdown" }
          guard run >= warmUps else { continue }
          load.append(Double(planned - began))
          start.append(Double(booted - planned))
          teardown.append(Double(stopped - booted))
        } catch {
          note = "\(error)".split(separator: "\n").prefix(3).joined(separator: " ")
          break
        }
      }
      func measurement(_ totals: [Double]) -> Measurement? {
        totals.isEmpty ? nil : Measurement(totals: totals, operations: count, allocations: nil)
      }
      let boot = zip(load, start).map { $0 + $1 }
      report.add(
        Row(
          section: section, name: "load+validate+plan, per module", apiary: measurement(load),
          peerName: "read+parse JSON", peer: floor.parse, note: note))
      report.add(
        Row(
          section: section, name: "setUp+start+ready, per module", apiary: measurement(start),
          peerName: "-", note: note))
      report.add(
        Row(
          section: section, name: "boot total, per module", apiary: measurement(boot),
          peerName: "read+parse+create by name", peer: floor.total, note: note))
      report.add(
        Row(
          section: section, name: "teardown, per module", apiary: measurement(teardown),
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
    for run in 0..<(warmUps + runs) {
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
      var instances: [any Module] = []
      instances.reserveCapacity(objects.count)
      for object in objects {
        if let name = object["type"] as? String, let type = catalog.lookup(name) as? any Module.Type
        {
          instances.append(type.init())
        }
      }
      let created = Harness.now()
      blackHole(instances)
      guard run >= warmUps else { continue }
      parse.append(Double(parsed - began))
      total.append(Double(created - began))
    }
    let count = files.count
    return (
      Measurement(totals: parse, operations: count, allocations: nil),
      Measurement(totals: total, operations: count, allocations: nil)
    )
  }
}
