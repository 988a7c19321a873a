import Apiary
import ApiaryTooling

/// `apiary call URL`: boot, one remote call, shut down.
enum CallCommand: HostCommand {
  static let name = "call"
  static let summary = "Boot, perform one remote call, print the result, shut down"
  static let usage = """
    USAGE: apiary call URL [DIR] [--verbose]

    Boots the application in DIR (default \(Host.defaultManifests)), performs the remote call URL
    (scheme://target/action?key=value) under the remote policy — the application's scheme, an
    action declared "remote": true, parameters that fit its declaration — prints the result (as
    JSON when it can be), and shuts down. Exits with 1 when the call is refused or fails.

    OPTIONS:
      --manifests DIR   the same as DIR
      --verbose         print the boot and shutdown timeline on standard error
    """
  static let flags: Set<String> = ["--verbose"]
  static let positionals = 1

  static func run(_ arguments: Arguments) async -> Int32 {
    guard let url = arguments.positionals.first else {
      return Host.usageError(UsageError("missing URL"), usage: usage)
    }
    let verbose = arguments.flags.contains("--verbose")
    let directory = arguments.manifests
    var observer: (@Sendable (LifecycleRecord) -> Void)?
    if verbose { observer = { record in Output.err(record.description) } }
    guard let kernel = Host.kernel(at: directory, observer: observer) else {
      return ExitStatus.failure
    }
    guard await Host.boot(kernel) else { return ExitStatus.failure }
    var status = ExitStatus.success
    do {
      Output.out(try ResultRenderer.render(try await kernel.mediator.open(url)))
    } catch {
      Output.err("error: \(error)")
      status = ExitStatus.failure
    }
    await kernel.shutdown()
    return status
  }
}
