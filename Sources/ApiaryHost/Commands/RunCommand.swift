import Apiary
import ApiaryTooling

/// `apiary run`: boot, serve URLs from standard input until SIGINT/SIGTERM or end of input,
/// shut down in reverse.
enum RunCommand: HostCommand {
  static let name = "run"
  static let summary = "Boot the application and serve until Ctrl-C or end of input"
  static let usage = """
    USAGE: apiary run [DIR] [--profile | --profile-json] [--quiet]

    Boots the application in DIR (default \(Host.defaultManifests)), printing the plan and a
    timeline of the boot, then serves until SIGINT/SIGTERM or end of standard input, and tears
    every module down in reverse start order.

    While it runs, each line of standard input is one of:
      scheme://target/action?key=value   a remote call; its result is printed
      :modules                           every module and its state
      :post EVENT [key=value ...]        dispatch a custom event, print who handled it
      :remove MODULE                     tear one module down and remove what it registered
      :help                              this list

    OPTIONS:
      --manifests DIR   the same as DIR
      --profile         print a table of hook and event durations, slowest first, on exit
      --profile-json    the same as JSON
      --quiet           no plan or timeline; only results
    """
  static let flags: Set<String> = ["--profile", "--profile-json", "--quiet"]

  static func run(_ arguments: Arguments) async -> Int32 {
    let quiet = arguments.flags.contains("--quiet")
    let directory = arguments.manifests
    let log: @Sendable (String) -> Void = { if !quiet { Output.err($0) } }
    guard let kernel = Host.kernel(at: directory, observer: { log($0.description) }) else {
      return ExitStatus.failure
    }
    log(
      "application '\(kernel.application.name)' (\(kernel.application.environment)) from \(directory)"
    )
    log(kernel.plan.table())
    // Listen before booting, so a Ctrl-C during boot is not lost: it is handled once boot ends.
    let inputs = HostInput.stream()
    log("boot:")
    guard await Host.boot(kernel) else { return ExitStatus.failure }
    let running = await kernel.startedModules.count
    log("ready: \(running) module\(running == 1 ? "" : "s") running; type ':help' for commands")

    let session = Session(kernel: kernel)
    serving: for await input in inputs {
      switch input {
      case .line(let line):
        if let output = await session.handle(line) { Output.out(output) }
      case .endOfInput:
        log("end of input: shutting down")
        break serving
      case .signal(let number):
        log("signal \(number): shutting down")
        break serving
      }
    }
    log("shutdown:")
    await kernel.shutdown()
    if arguments.flags.contains("--profile-json") {
      Output.out(kernel.profiler.json())
    } else if arguments.flags.contains("--profile") {
      Output.out(kernel.profiler.table())
    }
    return ExitStatus.success
  }
}
