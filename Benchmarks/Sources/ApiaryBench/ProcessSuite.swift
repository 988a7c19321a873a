import Apiary
import ApiaryProcess
import Foundation

/// A mediator call to a process-placed target (the same `math` actions served by a child
/// process: this executable started with `--serve-child`) against the same call to the target
/// in the process, in the same run: one call at a time (the round trip), and 64 calls in flight.
enum ProcessSuite {
  static let childFlag = "--serve-child"
  static let inFlight = 64

  /// The child's module: the `math` target under the name `pmath`.
  static let placed = ModuleManifest(
    name: "pmath", type: "ApiaryBench.QuietModule",
    targets: [
      TargetManifest(
        name: "pmath", type: "ApiaryBench.MathTarget", actions: MathTarget.manifest.actions)
    ], placement: .process)

  static let application = ApplicationManifest(name: "Process", scheme: "bench")

  /// The child's side: serves `pmath` on standard input and output; returns the exit status.
  static func serveChild() async -> Int32 {
    let wire = dup(1)
    _ = dup2(2, 1)
    do {
      let server = try ChildServer(application: application, module: placed, catalog: TypeCatalog())
      return await server.serve(reading: 0, writing: wire)
    } catch {
      printError("child: \(error)")
      return 1
    }
  }

  static func run(_ harness: Harness, into report: inout Report) async {
    let section = "process"
    let catalog = TypeCatalog()
    ProcessPlacement.prepare(catalog)
    let executable = CommandLine.arguments[0]
    let command = [
      executable.hasPrefix("/")
        ? executable : FileManager.default.currentDirectoryPath + "/" + executable,
      childFlag,
    ]
    let kernel: Kernel
    do {
      kernel = try Kernel(
        application: application,
        modules: [
          ModuleManifest(
            name: "math", type: "ApiaryBench.QuietModule", targets: [MathTarget.manifest]),
          ProcessPlacement.proxy(for: placed, command: command),
        ],
        catalog: catalog)
      try await kernel.boot()
    } catch {
      report.add(
        Row(
          section: section, name: "perform, process-placed target", peerName: "in process",
          note: "\(error)"))
      return
    }
    let mediator = kernel.mediator
    let params: [String: any Sendable] = ["a": 1, "b": 2]
    var note: String?
    do {
      let result = try performSynchronously(mediator, "pmath", params)
      if result as? Int != 3 { note = "pmath.add returned \(String(describing: result))" }
    } catch {
      note = "pmath.add threw \(error)"
    }
    let single = harness.measureInterleaved([
      { n in for _ in 0..<n { blackHole(try? performSynchronously(mediator, "pmath", params)) } },
      { n in for _ in 0..<n { blackHole(try? performSynchronously(mediator, "math", params)) } },
    ])
    report.add(
      Row(
        section: section, name: "perform, process-placed target (round trip)", apiary: single[0],
        peerName: "same call, target in process", peer: single[1], note: note))
    let flight = await harness.measureAsyncInterleaved([
      { n in await inFlight(mediator, "pmath", params, calls: n) },
      { n in await inFlight(mediator, "math", params, calls: n) },
    ])
    report.add(
      Row(
        section: section, name: "\(inFlight) calls in flight, per call", apiary: flight[0],
        peerName: "same calls, target in process", peer: flight[1], note: note))
    await kernel.shutdown()
  }

  /// `calls` awaited calls, `inFlight` at a time.
  private static func inFlight(
    _ mediator: Mediator, _ target: String, _ params: [String: any Sendable], calls: Int
  ) async {
    await withTaskGroup(of: Void.self) { group in
      for lane in 0..<inFlight {
        let share = calls / inFlight + (lane < calls % inFlight ? 1 : 0)
        group.addTask {
          for _ in 0..<share {
            blackHole(try? await mediator.perform(target: target, action: "add", params: params))
          }
        }
      }
    }
  }

  /// The synchronous `perform`, which `async` code would not pick.
  private static func performSynchronously(
    _ mediator: Mediator, _ target: String, _ params: [String: any Sendable]
  ) throws -> (any Sendable)? {
    try mediator.perform(target: target, action: "add", params: params, cache: true)
  }
}
