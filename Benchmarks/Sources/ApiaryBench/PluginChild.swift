import Apiary
import ApiaryCommands
import Foundation

/// One sample of a plugin case in a fresh process: `apiary-bench --child MODE PATH [FIRST...]`
/// times one operation and prints its nanoseconds. ``PluginSuite`` runs it. FIRST plugins are
/// loaded the same way before, untimed.
/// - `bare FILE`: `dlopen(FILE, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)`, the host's flags;
/// - `entry FILE`: the same `dlopen`, then `dlsym` and the entry call, without the gate and
///   without registering: what a first plugin costs before any gate runs;
/// - `gated FILE`: ``EmbeddedHost/loadPlugins(_:into:)`` of FILE alone: the load gate
///   (host facts, ELF read, checks), the same `dlopen`, `dlsym` and the entry call, and the
///   exported types checked and registered in a catalog that, as the host's, already holds a
///   type;
/// - `gated-all FILE...`: ``EmbeddedHost/loadPlugins(_:into:)`` of every FILE: one gate pass
///   over them all, then each opened and registered, as `apiary run` loads an application's
///   plugins; `bare-all FILE...`: the same `dlopen` of each;
/// - `boot DIRECTORY`: ``EmbeddedHost/kernel(manifestsAt:)`` and `boot()`, as `apiary run`.
enum PluginChild {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs the child for `arguments` (after `--child`); returns the exit status.
  static func run(_ arguments: [String]) async -> Int32 {
    guard arguments.count >= 2 else {
      return fail("usage: --child bare|entry|gated|bare-all|gated-all|boot PATH [PATH...]")
    }
    let (mode, path) = (arguments[0], arguments[1])
    // The host's catalog already holds its own types when it loads the first plugin.
    let catalog = TypeCatalog()
    catalog.register(TwinModule.self)
    func load(_ library: String) throws -> UInt64 {
      let began = Harness.now()
      if mode == "bare" || mode == "entry" {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
          throw Failure(description: dlerror().map { String(cString: $0) } ?? "dlopen failed")
        }
        if mode == "entry" {
          typealias Entry = @convention(c) () -> UnsafeMutableRawPointer?
          guard let symbol = dlsym(handle, "apiary_plugin_entry"),
            unsafeBitCast(symbol, to: Entry.self)() != nil
          else { throw Failure(description: "\(library): apiary_plugin_entry: no exports") }
        }
      } else {
        try EmbeddedHost.loadPlugins(
          [.init(library: library, version: PluginFactory.version)], into: catalog)
      }
      return Harness.now() - began
    }
    do {
      switch mode {
      case "bare", "gated", "entry":
        // FIRST: other plugins loaded the same way, untimed: the time is then that of a
        // plugin after them, with the gate's code and the loader warm.
        for first in arguments.dropFirst(2) { _ = try load(first) }
        print(try load(path))
      case "bare-all":
        let began = Harness.now()
        for library in arguments.dropFirst() {
          guard dlopen(library, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) != nil else {
            throw Failure(description: dlerror().map { String(cString: $0) } ?? "dlopen failed")
          }
        }
        print(Harness.now() - began)
      case "gated-all":
        let plugins = arguments.dropFirst().map {
          EmbeddedHost.Plugin(library: $0, version: PluginFactory.version)
        }
        let began = Harness.now()
        try EmbeddedHost.loadPlugins(plugins, into: catalog)
        print(Harness.now() - began)
      case "boot":
        let began = Harness.now()
        let kernel = try EmbeddedHost.kernel(manifestsAt: path)
        try await kernel.boot()
        let elapsed = Harness.now() - began
        await kernel.shutdown()
        print(elapsed)
      default:
        return fail("unknown child mode '\(mode)'")
      }
      return 0
    } catch {
      return fail("\(error)")
    }
  }

  /// Runs this executable as a child with `arguments`; returns the nanoseconds it printed.
  static func spawn(_ arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = ["--child"] + arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let problem = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0,
      let nanos = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      throw Failure(
        description: "child \(arguments.joined(separator: " ")) failed "
          + "(status \(process.terminationStatus)): \(problem.prefix(1_000))")
    }
    return nanos
  }

  private static func fail(_ message: String) -> Int32 {
    printError(message)
    return 1
  }
}
