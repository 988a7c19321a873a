import Apiary
import ApiaryProcess
import ApiaryTooling

/// `apiary run`: boot, serve URLs from standard input until SIGINT/SIGTERM or end of input,
/// shut down in reverse.
enum RunCommand: HostCommand {
  static let name = "run"
  static let summary = "Boot the application and serve until Ctrl-C or end of input"
  static let usage = """
    USAGE: apiary run [DIR] [--profile [--format text|json] | --profile-json] [--quiet]
                      [--shutdown-timeout SECONDS]

    Boots the application in DIR (default \(Host.defaultManifests)), printing the plan and a
    timeline of the boot, then serves until SIGINT/SIGTERM or end of standard input, and tears
    every module down in reverse start order.

    While it runs, each line of standard input is one of:
      scheme://target/action?key=value   a remote call; its result is printed
      :modules                           every module and its state
      :post EVENT [key=value ...]        dispatch a custom event, print who handled it
      :load MANIFEST                     add the modules of a module manifest file, their
                                         plugin libraries checked by the load gate
      :remove MODULE                     tear one module down and remove what it registered
      :restart MODULE                    restart a module's child process (placement
                                         "process"), loading its plugin library anew
      :resolve PROTOCOL [NAME]           resolve a service by its protocol's name, print the
                                         implementation and the instance's identity
      :wait                              wait until the calls before it have finished
      :help                              this list

    Calls (URLs, :post, :resolve) run side by side, at most \(SessionLoop.concurrentCalls)
    at a time, each printing its result when it finishes, so a call that hangs holds nothing
    else up; put a :wait line between calls that must run in order. The commands :modules
    and :help answer at once; :load, :remove and :restart wait for the calls in flight, and
    the lines after them wait for them. At the end of input the host waits for the calls in
    flight, then shuts down.

    The first SIGINT or SIGTERM stops serving (calls in flight are abandoned) and shuts down;
    if that takes longer than SECONDS, the host exits with \(ExitStatus.shutdownTimedOut).
    A second signal exits at once with \(ExitStatus.forced).

    OPTIONS:
      --manifests DIR             the same as DIR
      --profile                   print hook and event durations per module and event, slowest
                                  first, on exit (nothing is recorded without it)
      --format FORMAT             the --profile report as text (default) or json
                                  (docs/json-output.md)
      --profile-json              the older JSON form: a bare array of the entries
                                  (deprecated; use --profile --format json)
      --quiet                     no plan or timeline; only results
      \(Host.shutdownTimeoutUsage)
    """
  static let flags: Set<String> = ["--profile", "--profile-json", "--quiet"]
  static let options: Set<String> = [OutputFormat.option, "--shutdown-timeout"]

  static func run(_ arguments: Arguments) async throws(UsageError) -> Int32 {
    let shutdownTimeout = try arguments.shutdownTimeout()
    let format = try OutputFormat(arguments)
    if arguments.options[OutputFormat.option] != nil, !arguments.flags.contains("--profile") {
      throw UsageError("--format chooses how --profile prints its report; add --profile")
    }
    let quiet = arguments.flags.contains("--quiet")
    let directory = arguments.manifests
    let log: @Sendable (String) -> Void = { if !quiet { StandardError.print($0) } }
    guard let kernel = Host.kernel(at: directory, observer: { log($0.description) }) else {
      return ExitStatus.failure
    }
    ProcessSupervision.gaveUp = { module, reason in
      Task {
        await kernel.markFailed(module, reason: reason)
        StandardError.print("apiary: module '\(module)' failed: \(reason)")
      }
    }
    let json = arguments.flags.contains("--profile-json")
    kernel.profiler.isRecording = json || arguments.flags.contains("--profile")
    log(
      "application '\(kernel.application.name)' (\(kernel.application.environment)) from \(directory)"
    )
    if !quiet {
      StandardError.print(
        lines: kernel.plan.table(refused: RefusedPluginModule.names(in: kernel.plan)))
    }
    let status = await Host.session(kernel, shutdownTimeout: shutdownTimeout, log: log) {
      let running = await kernel.startedModules.count
      log("ready: \(running) module\(running == 1 ? "" : "s") running; type ':help' for commands")
      // Ends at end of input, or when a signal cancels this task.
      await SessionLoop(session: Session(kernel: kernel)).serve(HostInput())
      if !Task.isCancelled { log("end of input: shutting down") }
      return ExitStatus.success
    }
    if json {
      Output.out(kernel.profiler.json())
    } else if kernel.profiler.isRecording {
      Output.out(
        lines: (format == .json ? kernel.profiler.report() : kernel.profiler.table()).lines)
    }
    return status ?? ExitStatus.success
  }
}
