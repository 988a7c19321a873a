import Apiary
import ApiaryTooling

/// `apiary call URL`: boot, one remote call, shut down.
enum CallCommand: HostCommand {
  static let name = "call"
  static let summary = "Boot, perform one remote call, print the result, shut down"
  static let usage = """
    USAGE: apiary call URL [DIR] [--verbose] [--format text|json] [--shutdown-timeout SECONDS]

    Boots the application in DIR (default \(Host.defaultManifests)), performs the remote call URL
    (scheme://target/action?key=value) under the remote policy — the application's scheme, an
    action declared "remote": true, parameters that fit its declaration — prints the result (as
    JSON when it can be), and shuts down. Exits with 1 when the call is refused or fails, or
    its result cannot be written (a closed pipe, a full device).

    SIGINT or SIGTERM abandons the call and shuts down (exit status 1); if that takes longer
    than SECONDS, the host exits with \(ExitStatus.shutdownTimedOut). A second signal exits at
    once with \(ExitStatus.forced).

    OPTIONS:
      --manifests DIR             the same as DIR
      --verbose                   print the boot and shutdown timeline on standard error
      --format FORMAT             text (default) or json: the result or the typed error, on
                                  standard output
      \(Host.shutdownTimeoutUsage)
    """
  static let flags: Set<String> = ["--verbose"]
  static let options: Set<String> = [OutputFormat.option, "--shutdown-timeout"]
  static let positionals = 1

  static func run(_ arguments: Arguments) async throws(UsageError) -> Int32 {
    guard let url = arguments.positionals.first else {
      return Host.usageError(UsageError("missing URL"), usage: usage)
    }
    // `apiary call Manifests notebook://…` would otherwise report a missing directory.
    if !url.contains("://"), arguments.manifests.contains("://") {
      return Host.usageError(
        UsageError("the URL comes first: apiary call '\(arguments.manifests)' '\(url)'"),
        usage: usage)
    }
    let shutdownTimeout = try arguments.shutdownTimeout()
    let verbose = arguments.flags.contains("--verbose")
    let format = try OutputFormat(arguments)
    let directory = arguments.manifests
    var observer: (@Sendable (LifecycleRecord) -> Void)?
    if verbose { observer = { record in StandardError.print(record.description) } }
    guard let kernel = Host.kernel(at: directory, observer: observer) else {
      return ExitStatus.failure
    }
    @Sendable func failed(_ error: any Error, text: String) -> Int32 {
      if format == .json { Output.out(CallReport.failure(url: url, error: error)) }
      StandardError.print("error: " + text)
      return ExitStatus.failure
    }
    // A URL that cannot be called by any application is refused before this one boots.
    do throws(MediatorError) { try kernel.mediator.checkURL(url) } catch {
      return failed(error, text: "\(error)" + NotFoundHint.text(for: error, in: kernel.mediator))
    }
    let status = await Host.session(kernel, shutdownTimeout: shutdownTimeout) {
      do {
        let result = try await kernel.mediator.open(url)
        let text =
          try format == .json
          ? CallReport.success(url: url, result: result) : ResultRenderer.render(result)
        Output.out(text)
        return ExitStatus.success
      } catch {
        return failed(error, text: await CallFailure.text(error, calling: url, in: kernel))
      }
    }
    guard let status else {
      StandardError.print("error: interrupted; the call did not finish")
      return ExitStatus.failure
    }
    return status
  }
}
