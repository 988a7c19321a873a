import Apiary
import ApiaryCommands
import Foundation

/// One sample of a plugin case in a fresh process: `apiary-bench --child MODE ARGUMENT` times
/// one operation and prints its nanoseconds. ``PluginSuite`` runs it.
/// - `bare FILE`: `dlopen(FILE, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)`, the host's flags;
/// - `gated FILE`: ``EmbeddedHost/loadPlugin(library:version:sha256:into:)``: the load gate
///   (host facts, ELF read, checks), the same `dlopen`, `dlsym` and the entry call, and the
///   exported types checked and registered;
/// - `boot DIRECTORY`: ``EmbeddedHost/kernel(manifestsAt:)`` and `boot()`, as `apiary run`.
enum PluginChild {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs the child for `arguments` (after `--child`); returns the exit status.
  static func run(_ arguments: [String]) async -> Int32 {
    guard arguments.count == 2 else { return fail("usage: --child bare|gated|boot PATH") }
    let (mode, path) = (arguments[0], arguments[1])
    let began = Harness.now()
    switch mode {
    case "bare":
      guard dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) != nil else {
        return fail(dlerror().map { String(cString: $0) } ?? "dlopen failed")
      }
    case "gated":
      do {
        try EmbeddedHost.loadPlugin(
          library: path, version: PluginFactory.version, into: TypeCatalog())
      } catch {
        return fail("\(error)")
      }
    case "boot":
      do {
        let kernel = try EmbeddedHost.kernel(manifestsAt: path)
        try await kernel.boot()
        let elapsed = Harness.now() - began
        await kernel.shutdown()
        print(elapsed)
        return 0
      } catch {
        return fail("\(error)")
      }
    default:
      return fail("unknown child mode '\(mode)'")
    }
    print(Harness.now() - began)
    return 0
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
