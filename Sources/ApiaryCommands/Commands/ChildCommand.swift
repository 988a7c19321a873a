import Apiary

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

    OPTIONS:
      --manifests DIR   the same as DIR
    """
  static let positionals = 2

  static func run(_ arguments: Arguments) async throws(UsageError) -> Int32 {
    guard arguments.positionals.count == 2 else { throw UsageError("expected NAME and FILE") }
    return await EmbeddedHost.serveChild(
      name: arguments.positionals[0], file: arguments.positionals[1],
      directory: arguments.manifests)
  }
}
