import Apiary
import ApiaryProcess

/// The `apiary` command: dispatches to a subcommand and turns errors into exit statuses.
enum Host {
  static let commands: [any HostCommand.Type] = [
    RunCommand.self, CallCommand.self, ValidateCommand.self, PlanCommand.self,
    InspectCommand.self, GenerateCommand.self, GraphCommand.self, CompletionCommand.self,
    PluginCommand.self, ChildCommand.self,
  ]

  /// The manifests directory used when none is given.
  static let defaultManifests = "Manifests"

  /// Seconds a graceful shutdown may take after SIGINT or SIGTERM, unless `--shutdown-timeout`.
  static let defaultShutdownTimeout = 30.0

  /// The `--shutdown-timeout` line in the usage of the commands that run module code.
  static let shutdownTimeoutUsage =
    "--shutdown-timeout SECONDS  time to shut down after a signal (default "
    + "\(Int(defaultShutdownTimeout)))"

  static let usage = """
    apiary — run an application made of plugin modules, configured by manifests.

    USAGE: apiary <command> [options]

    COMMANDS:
    \(commands.map { "  " + $0.name.padding(12) + $0.summary }.joined(separator: "\n"))

    Every command but 'plugin' reads the manifests in DIR (default \(defaultManifests));
    '--manifests DIR' is the same. Run 'apiary help <command>' or 'apiary <command> --help'
    for a command's options.
    """

  /// Runs the command `words` name; a command whose result could not be written (a closed
  /// pipe, a full device) fails, with one line on standard error, whatever it returned.
  static func main(_ words: [String]) async -> Int32 {
    let status = await dispatch(words)
    guard let failure = Output.unwritten else { return status }
    StandardError.print("error: could not write the result: \(failure)")
    return status == ExitStatus.success ? ExitStatus.failure : status
  }

  private static func dispatch(_ words: [String]) async -> Int32 {
    guard let first = words.first, first != "--help", first != "-h" else {
      Output.out(lines: usage.lines)
      return words.isEmpty ? ExitStatus.usage : ExitStatus.success
    }
    if first == "help" {
      guard let name = words.dropFirst().first else {
        Output.out(lines: usage.lines)
        return ExitStatus.success
      }
      guard let command = commands.first(where: { $0.name == name }) else {
        return usageError(UsageError("unknown command '\(name)'"), usage: usage)
      }
      Output.out(lines: command.usage.lines)
      return ExitStatus.success
    }
    guard let command = commands.first(where: { $0.name == first }) else {
      return usageError(UsageError("unknown command '\(first)'"), usage: usage)
    }
    let rest = words.dropFirst()
    if rest.contains("--help") || rest.contains("-h") {
      Output.out(lines: command.usage.lines)
      return ExitStatus.success
    }
    do {
      let arguments = try Arguments(
        rest, positionals: command.positionals, flags: command.flags, options: command.options,
        readsManifests: command.readsManifests)
      return try await command.run(arguments)
    } catch {
      return usageError(error, usage: command.usage)
    }
  }

  static func usageError(_ error: UsageError, usage: String) -> Int32 {
    StandardError.print(lines: ["error: \(error)", ""] + usage.lines)
    return ExitStatus.usage
  }

  /// Loads and plans the application in `directory`, printing problems on failure. With
  /// `.gateOnly`, plugin libraries are checked by the load gate but not opened.
  static func kernel(
    at directory: String, plugins: ApplicationLoader.Plugins = .load,
    observer: (@Sendable (LifecycleRecord) -> Void)? = nil
  ) -> Kernel? {
    var loader = ApplicationLoader(plugins: plugins)
    let loaded:
      (
        application: ApplicationManifest, modules: [ModuleManifest], files: [String],
        index: ModuleIndex?
      )
    do {
      loaded = try loader.load(directory: directory)
    } catch {
      StandardError.print(lines: errorLines(error))
      return nil
    }
    for notice in loader.notices { StandardError.print("warning: plugin refused: \(notice)") }
    for note in loader.notes { StandardError.print("note: \(note)") }
    do {
      return try Kernel(
        application: loaded.application, modules: loaded.modules, index: loaded.index,
        catalog: loader.catalog, observer: observer)
    } catch {
      StandardError.print(lines: errorLines(error))
      return nil
    }
  }

  /// `error`'s message a line an element, each to be escaped on its own: a newline a manifest
  /// put in a problem shows as `\n` and cannot start a line of its own.
  static func lines(of error: any Error) -> [String] {
    switch error {
    case let failure as ApplicationLoader.Failure: failure.lines
    case let error as KernelError: error.lines
    default: ["\(error)"]
    }
  }

  /// ``lines(of:)`` with `prefix` before the first line.
  static func errorLines(_ error: any Error, prefix: String = "error: ") -> [String] {
    let lines = lines(of: error)
    return [prefix + (lines.first ?? "")] + lines.dropFirst()
  }
}

extension Host {
  /// Boots `kernel`, runs `work` unless SIGINT or SIGTERM comes first, and shuts the kernel down.
  ///
  /// Signals are handled as ``Interruption`` describes: the first one abandons `work` — or, when
  /// it comes during the boot, lets the boot finish (each hook is bounded by its manifest
  /// `timeout`) and skips `work` — and the kernel shuts down; the process ends at the latest
  /// `shutdownTimeout` seconds after it.
  ///
  /// - Returns: `work`'s status; ``ExitStatus/failure`` when the boot failed; nil when a signal
  ///   stopped the session.
  static func session(
    _ kernel: Kernel, shutdownTimeout: Double,
    log: @escaping @Sendable (String) -> Void = { _ in },
    _ work: @escaping @Sendable () async -> Int32
  ) async -> Int32? {
    let interruption = Interruption.install(deadline: shutdownTimeout)
    log("boot:")
    defer { killRemainingChildren() }
    guard await boot(kernel) else { return ExitStatus.failure }
    let status = await interruption.unlessInterrupted(work)
    log("shutdown:")
    await kernel.shutdown()
    return status
  }

  /// Kills the child processes no module ended (stuck in a hook the host gave up on), saying
  /// which, so none outlives the host.
  static func killRemainingChildren() {
    for child in ChildProcess.killRemaining() {
      StandardError.print(
        "apiary: module '\(child.name)' (pid \(child.pid)) still running at exit; killed")
    }
  }

  /// Boots `kernel`, printing the error on failure; false when the boot failed. After a failed
  /// boot, the children of process-placed modules that were set up but never started (the
  /// kernel tears down started modules only) are ended as a shutdown ends them, not killed at
  /// exit as children stuck in a hook are.
  static func boot(_ kernel: Kernel) async -> Bool {
    do {
      try await kernel.boot()
      return true
    } catch {
      StandardError.print(lines: errorLines(error, prefix: "error: boot failed: "))
      await ProcessSupervision.stopAll(grace: .seconds(1))
      return false
    }
  }
}

/// A subcommand of `apiary`. A command that reads manifests takes their directory as the
/// shared option group of ``Arguments``.
protocol HostCommand: Sendable {
  static var name: String { get }
  static var summary: String { get }
  static var usage: String { get }
  /// How many positionals the command takes before `DIR`.
  static var positionals: Int { get }
  /// Whether the command reads manifests, and so takes `DIR` or `--manifests DIR`.
  static var readsManifests: Bool { get }
  static var flags: Set<String> { get }
  static var options: Set<String> { get }
  /// Runs the command; a usage error it throws is printed with its usage (exit status 2).
  static func run(_ arguments: Arguments) async throws(UsageError) -> Int32
}

extension HostCommand {
  static var positionals: Int { 0 }
  static var readsManifests: Bool { true }
  static var flags: Set<String> { [] }
  static var options: Set<String> { [] }
}
