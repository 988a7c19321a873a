import Apiary
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A module that misbehaves on purpose, for the host's tests (`Tests/ApiaryHostTests`). It is
/// linked into `apiary` only so that test manifests can name it; the sample application never
/// does.
///
/// Config: `"hangIn": "setUp" | "start" | "tearDown"` blocks that hook's thread for good, as a
/// deadlocked module would; `"startGate": PATH` makes `start` wait until the file at PATH exists;
/// `"floodStandardError": BYTES` makes `setUp` write that much to standard error.
/// Every hook first prints `fault NAME: HOOK` on standard error, so a test knows where it is.
///
/// ```json
/// {"name": "stuck", "type": "FaultPlugin.FaultModule", "config": {"hangIn": "setUp"}}
/// ```
final class FaultModule: Module {
  init() {}

  func setUp(_ context: ModuleContext) throws {
    try enter("setUp", context)
    let flood = try context.config.int("floodStandardError", default: 0)
    if flood > 0 { Fault.announce(String(repeating: "flood\n", count: flood / 6)) }
  }

  func start(_ context: ModuleContext) async throws {
    try enter("start", context)
    let gate = try context.config.string("startGate", default: "")
    if !gate.isEmpty {
      while !FileManager.default.fileExists(atPath: gate) {
        try await Task.sleep(for: .milliseconds(10))
      }
    }
  }

  func tearDown(_ context: ModuleContext) async throws {
    try enter("tearDown", context)
  }

  private func enter(_ hook: String, _ context: ModuleContext) throws {
    Fault.announce("fault \(context.name): \(hook)")
    if try context.config.string("hangIn", default: "") == hook { Fault.blockForever() }
  }
}

/// The `faults` target: `hang` blocks its thread for good.
final class FaultTarget: Target {
  init(context: ModuleContext) throws {}

  static let actions: ActionTable<FaultTarget> = [
    "hang": .sync { _, _ in
      Fault.announce("fault: hang")
      Fault.blockForever()
    }
  ]
}

enum Fault {
  static func announce(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  /// Holds the calling thread, never returning and never suspending.
  static func blockForever() -> Never {
    while true { sleep(3600) }
  }
}
