import Apiary
import ApiaryCommands
import Foundation

/// A mediator call to a process-placed target (the same `math` actions served by a child
/// process: this executable started with `--serve-child`) against the same call to the target
/// in the process, in the same run: one call at a time (the round trip), and 64 calls in flight.
enum ProcessSuite {
  static let childFlag = "--serve-child"
  static let inFlight = 64

  /// The child's side: serves `pmath` from the manifests in `directory` on standard input and
  /// output, as `apiary child` does; returns the exit status.
  static func serveChild(directory: String) async -> Int32 {
    await EmbeddedHost.serveChild(
      name: "pmath", file: directory + "/modules.json", directory: directory)
  }

  static func run(_ harness: Harness, into report: inout Report) async {
    let section = "process"
    let kernel: Kernel
    do {
      kernel = try EmbeddedHost.kernel(manifestsAt: writeManifests())
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

  /// The application: `math` in the process and the same target as `pmath` in a child, which is
  /// this executable started with `--serve-child DIR`.
  private static func writeManifests() throws -> String {
    let executable = CommandLine.arguments[0]
    let path =
      executable.hasPrefix("/")
      ? executable : FileManager.default.currentDirectoryPath + "/" + executable
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("apiary-bench-\(getpid())-Process").path
    let command = [path, childFlag, directory].map { "\"\($0)\"" }.joined(separator: ", ")
    let placed = MathTarget.module(
      "pmath", target: "pmath", fields: #""placement": "process", "command": [\#(command)],"#)
    return try ManifestGenerator.write(
      application: "Process", modules: [MathTarget.module(), placed])
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
