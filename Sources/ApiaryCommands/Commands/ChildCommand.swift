import Apiary
import ApiaryProcess

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `apiary child NAME FILE [DIR]`: the child process of a process-placed module. The host
/// starts it; it speaks the wire protocol (docs/wire-protocol.md) on standard input and output.
enum ChildCommand: HostCommand {
  static let name = "child"
  static let summary = "Serve one process-placed module to the host that started it"
  static let usage = """
    USAGE: apiary child NAME FILE [DIR]

    Started by the host for a module whose manifest says "placement": "process". Loads the
    application manifest in DIR (default \(Host.defaultManifests)) and the module NAME declared in
    the module manifest FILE, passes its plugin library through the same load gate as the host,
    opens it, and serves the host's requests (docs/wire-protocol.md) on standard input and
    output until the host closes standard input. Whatever the module prints goes to standard
    error, which the host shows tagged with the module's name.
    """
  static let positionals = 2

  static func run(_ arguments: Arguments) async -> Int32 {
    Lifeline.watchParent()  // end with the host however it ends; first, before other threads
    guard arguments.positionals.count == 2 else {
      return Host.usageError(UsageError("expected NAME and FILE"), usage: usage)
    }
    // The wire gets its own descriptor; standard output becomes standard error, so a module
    // that prints cannot corrupt the wire.
    let wire = dup(1)
    _ = dup2(2, 1)
    _ = signal(SIGPIPE, SIG_IGN)
    PluginGate.installHandshake()
    var loader = ApplicationLoader(plugins: .load)
    let server: ChildServer
    do {
      let (application, module) = try loader.loadChild(
        name: arguments.positionals[0], file: arguments.positionals[1],
        directory: arguments.manifests)
      server = try ChildServer(application: application, module: module, catalog: loader.catalog)
    } catch {
      Output.err(lines: "error: \(error)".split(separator: "\n").map(String.init))
      return ExitStatus.failure
    }
    return await server.serve(reading: 0, writing: wire)
  }
}
