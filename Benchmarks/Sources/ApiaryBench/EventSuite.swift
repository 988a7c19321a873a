import Apiary

/// One custom event dispatched to 1,000 modules that handle it, per handler, against calling the
/// same handler closures from an array.
enum EventSuite {
  static let handlers = 1_000

  static func run(_ harness: Harness, into report: inout Report) async {
    let section = "events, \(handlers) handlers"
    let name = "post, per handler"
    let catalog = TypeCatalog()
    let modules = (0..<handlers).map { index in
      #"{"name": "listener\#(index)", "type": "ApiaryBench.ListeningModule"}"#
    }
    let kernel: Kernel
    do {
      kernel = try Kernel(
        manifestsAt: ManifestGenerator.write(application: "Events", modules: modules),
        catalog: catalog)
      try await kernel.boot()
    } catch {
      report.add(
        Row(
          section: section, name: name, peerName: "handler array", note: "\(error)"))
      return
    }
    let check = await kernel.events.post(ListeningModule.event)
    let note =
      check.handledBy.count == handlers
      ? nil : "handled by \(check.handledBy.count) of \(handlers) modules"
    let measured = await harness.measureAsyncInterleaved([
      { n in for _ in 0..<n { blackHole(await kernel.events.post(ListeningModule.event)) } },
      baseline(),
    ])
    await kernel.shutdown()
    report.add(
      Row(
        section: section, name: name, apiary: measured[0].per(handlers),
        peerName: "handler array", peer: measured[1].per(handlers), note: note))
  }

  /// The same number of handlers in an array, called in order, outcomes collected.
  private static func baseline() -> (Int) async -> Void {
    let closures: [EventBus.Handler] = (0..<handlers).map { _ in { _ in .handled } }
    let event = Event(name: ListeningModule.event)
    return { n in
      for _ in 0..<n {
        var handled = 0
        for closure in closures where (try? await closure(event)) == .handled { handled += 1 }
        blackHole(handled)
      }
    }
  }
}
