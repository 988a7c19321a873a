import Apiary
import ApiaryCommands
import Foundation
import Synchronization

/// Lazy activation (issue 14): the boot of 10,000 generated modules of which nine in ten are
/// lazy, per module, as `apiary run` boots them (``EmbeddedHost/kernel(manifestsAt:)``: load,
/// gate, validate, plan; then `boot()`), against the floor of listing, reading and parsing
/// their manifests in the same run (``parseFloor(_:)``, with Apiary's own parser; Foundation's
/// `JSONSerialization` floor is a second row); and
/// the first call to a target of a dormant module without hooks (which wakes it), against a
/// call to a running one. Floor and kernel runs alternate, as in ``LifecycleSuite``.
enum LazySuite {
  static let section = "lazy activation"
  static let modules = 10_000

  static func run(_ harness: Harness, into report: inout Report) async {
    await boot(harness, into: &report)
    await firstCall(harness, into: &report)
  }

  private static func boot(_ harness: Harness, into report: inout Report) async {
    let name = "boot, 90% lazy, per module"
    let smoke = harness.samples <= 2
    let runs = smoke ? 1 : max(harness.oneShotRuns, 9)
    let generated: ManifestGenerator.Output
    do {
      generated = try ManifestGenerator(count: modules, lazy: true).write()
    } catch {
      report.add(Row(section: section, name: name, peerName: "-", note: "\(error)"))
      return
    }
    defer { try? FileManager.default.removeItem(atPath: generated.directory) }
    let catalog = TypeCatalog()
    let directory = "\(generated.directory)/modules"
    var (floor, twoThreads, foundation, boot): ([Double], [Double], [Double], [Double]) = (
      [], [], [], []
    )
    var note: String?
    for run in 0..<(runs + (smoke ? 0 : 1)) {
      let timed = smoke || run > 0
      let parse = parseFloor(directory)
      let parseOnTwo = parseFloorOnTwoThreads(directory)
      let parseWithFoundation = LifecycleSuite.floor(directory, catalog: catalog).parse
      do {
        let began = Harness.now()
        let kernel = try EmbeddedHost.kernel(manifestsAt: generated.directory)
        try await kernel.boot()
        let booted = Harness.now()
        let dormant = await modules - kernel.startedModules.count
        await kernel.shutdown()
        if dormant != modules * 9 / 10 { note = "\(dormant) dormant modules, expected 9,000" }
        if timed {
          floor.append(Double(parse.nanoseconds))
          twoThreads.append(Double(parseOnTwo.nanoseconds))
          foundation.append(Double(parseWithFoundation))
          boot.append(Double(booted - began))
        }
        for files in [parse.files, parseOnTwo.files] where files != modules {
          note = "the floor parsed \(files) files, not \(modules)"
        }
      } catch {
        note = "\(error)".split(separator: "\n").prefix(3).joined(separator: " ")
        break
      }
    }
    report.add(
      Row(
        section: section, name: name, apiary: measurement(boot, per: modules),
        peerName: "list+read+parse with Apiary's parser", peer: measurement(floor, per: modules),
        note: note))
    report.add(
      Row(
        section: section, name: "\(name), two-thread floor",
        apiary: measurement(boot, per: modules),
        peerName: "list+read+parse on two threads", peer: measurement(twoThreads, per: modules),
        note: note))
    report.add(
      Row(
        section: section, name: "\(name), Foundation floor",
        apiary: measurement(boot, per: modules),
        peerName: "list+read+parse with JSONSerialization",
        peer: measurement(foundation, per: modules), note: note))
  }

  /// The least any boot from these manifests pays: list `directory` with `readdir` (unsorted),
  /// read each `*.json` file with `openat` and one `read` into a reused buffer (no `fstat`, no
  /// `Data`), and parse it with the parser loading uses, into its positioned tree
  /// (``EmbeddedHost/parseManifest(_:file:)``), decoding nothing. Nanoseconds, and the files
  /// that parsed.
  static func parseFloor(_ directory: String) -> (nanoseconds: UInt64, files: Int) {
    let began = Harness.now()
    guard let listing = opendir(directory) else { return (0, 0) }
    defer { closedir(listing) }
    let capacity = 1 << 16
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
    defer { buffer.deallocate() }
    var files = 0
    while let entry = readdir(listing) {
      let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
        field.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: field.pointee))
        {
          String(cString: $0)
        }
      }
      guard name.hasSuffix(".json") else { continue }
      let descriptor = openat(dirfd(listing), name, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { continue }
      let count = read(descriptor, buffer.baseAddress, capacity)
      close(descriptor)
      guard count > 0, count < capacity else { continue }
      if EmbeddedHost.parseManifest(UnsafeRawBufferPointer(rebasing: buffer[..<count]), file: name)
      {
        files += 1
      }
    }
    return (Harness.now() - began, files)
  }

  /// ``parseFloor(_:)`` on two threads, as boot reads many module files: `directory` is listed
  /// first, then each half of the `*.json` files is read and parsed on a thread of its own (the
  /// calling thread takes the first). Nanoseconds, listing and both halves included, and the
  /// files that parsed.
  static func parseFloorOnTwoThreads(_ directory: String) -> (nanoseconds: UInt64, files: Int) {
    let began = Harness.now()
    guard let listing = opendir(directory) else { return (0, 0) }
    defer { closedir(listing) }
    var names: [String] = []
    while let entry = readdir(listing) {
      let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
        field.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: field.pointee))
        {
          String(cString: $0)
        }
      }
      if name.hasSuffix(".json") { names.append(name) }
    }
    let descriptor = dirfd(listing)
    let halves = [names[..<(names.count / 2)], names[(names.count / 2)...]]
    let parsed = Mutex([0, 0])
    DispatchQueue.concurrentPerform(iterations: 2) { half in
      let files = parseFiles(halves[half], in: descriptor)
      parsed.withLock { $0[half] = files }
    }
    return (Harness.now() - began, parsed.withLock { $0[0] + $0[1] })
  }

  /// The files of `names` in the directory `descriptor` that ``parseFloor(_:)`` would parse,
  /// read and parsed as it reads and parses them.
  private static func parseFiles(_ names: ArraySlice<String>, in descriptor: Int32) -> Int {
    let capacity = 1 << 16
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
    defer { buffer.deallocate() }
    var files = 0
    for name in names {
      let file = openat(descriptor, name, O_RDONLY | O_CLOEXEC)
      guard file >= 0 else { continue }
      let count = read(file, buffer.baseAddress, capacity)
      close(file)
      guard count > 0, count < capacity else { continue }
      if EmbeddedHost.parseManifest(UnsafeRawBufferPointer(rebasing: buffer[..<count]), file: name)
      {
        files += 1
      }
    }
    return files
  }

  /// `count` dormant modules without hooks, each declaring its own `math` target; each is
  /// called twice, the first call waking it.
  private static func firstCall(_ harness: Harness, into report: inout Report) async {
    let name = "first call, waking a module without hooks"
    let count = harness.samples <= 2 ? 5 : 1_001
    let modules = (0..<count).map { index in
      MathTarget.module("quiet\(index)", target: "math\(index)", activation: "lazy")
    }
    var (first, running): ([Double], [Double]) = ([], [])
    var note: String?
    do {
      let kernel = try Kernel(
        manifestsAt: ManifestGenerator.write(application: "Lazy", modules: modules),
        catalog: TypeCatalog())
      try await kernel.boot()
      for index in 0..<count {
        let target = "math\(index)"
        let began = Harness.now()
        let woken = try add(kernel.mediator, target)
        let called = Harness.now()
        let again = try add(kernel.mediator, target)
        let ended = Harness.now()
        guard woken == 3, again == 3 else { throw CocoaError(.featureUnsupported) }
        first.append(Double(called - began))
        running.append(Double(ended - called))
      }
      if await kernel.startedModules.count != count { note = "not every module woke" }
      await kernel.shutdown()
    } catch {
      note = "\(error)".split(separator: "\n").prefix(3).joined(separator: " ")
    }
    report.add(
      Row(
        section: section, name: name, apiary: measurement(first, per: 1),
        peerName: "call to a running module", peer: measurement(running, per: 1), note: note))
  }

  /// A synchronous call on this thread, as a module's code would make it.
  private static func add(_ mediator: Mediator, _ target: String) throws -> Int? {
    try mediator.perform(target: target, action: "add", params: ["a": 1, "b": 2]) as? Int
  }

  private static func measurement(_ totals: [Double], per operations: Int) -> Measurement? {
    totals.isEmpty ? nil : Measurement(totals: totals, operations: operations, allocations: nil)
  }
}
