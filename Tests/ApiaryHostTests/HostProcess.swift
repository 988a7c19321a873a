import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the built `apiary` executable as a user would, and captures what it prints.
struct HostProcess {
  struct Result {
    let status: Int32
    let stdout: String
    let stderr: String
  }

  /// The repository root (where `Manifests/` is).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// `apiary`, next to the test bundle in the build products directory.
  static let executable: URL = {
    let products = Bundle.main.bundleURL.deletingLastPathComponent()
    for candidate in [
      Bundle.main.bundleURL.appendingPathComponent("apiary"),
      products.appendingPathComponent("apiary"),
      root.appendingPathComponent(".build/debug/apiary"),
    ] where FileManager.default.isExecutableFile(atPath: candidate.path) {
      return candidate
    }
    return root.appendingPathComponent(".build/debug/apiary")
  }()

  /// Starts `apiary arguments…` in `directory` (a fresh temporary one by default); with
  /// `mergingError`, standard error goes to the output pipe too (as `2>&1`).
  static func start(
    _ arguments: [String], in directory: URL? = nil, mergingError: Bool = false
  ) throws -> (process: Process, input: Pipe, output: Pipe, error: Pipe) {
    // A write to a host that has exited fails with EPIPE instead of ending the whole test run
    // with SIGPIPE.
    _ = ignoreBrokenPipes
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? temporaryDirectory()
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = mergingError ? output : error
    try process.run()
    return (process, input, output, error)
  }

  /// Runs `apiary arguments…` to completion, feeding `input` on standard input; a host still
  /// running after ``Running/finish(watchdog:)``'s time is killed, so the test fails instead of
  /// hanging the suite.
  static func run(_ arguments: [String], input: String = "", in directory: URL? = nil) throws
    -> Result
  {
    let running = try Running(arguments, in: directory)
    // A host that exits before reading its input (a failed boot) leaves the rest unread.
    try? running.input.fileHandleForWriting.write(contentsOf: Data(input.utf8))
    return try running.finish()
  }

  private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

  /// `input` (lines for `apiary run`) with `:wait` after each line: `run` runs calls side by
  /// side and prints each result when it finishes, so a test that reads the results line by
  /// line lets each call finish before the next starts, as a script that needs them in order
  /// does.
  static func oneByOne(_ input: String) -> String {
    input.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\n:wait\n" }
      .joined()
  }

  /// The default application's manifests, naming its plugins built for the tests.
  static var manifests: String { SamplePlugins.manifests }

  /// A started `apiary` that a test talks to while it runs: waits for what it prints, signals
  /// it, and collects its exit.
  final class Running {
    let process: Process
    let input: Pipe
    let output: Pipe
    let error: Pipe
    private(set) var stderr = Data()

    init(_ arguments: [String], in directory: URL? = nil) throws {
      (process, input, output, error) = try HostProcess.start(arguments, in: directory)
    }

    /// Reads standard error until it contains `text` (true) or ends (false).
    @discardableResult
    func waitForError(_ text: String) -> Bool {
      while !String(decoding: stderr, as: UTF8.self).contains(text) {
        let chunk = error.fileHandleForReading.availableData
        guard !chunk.isEmpty else { return false }
        stderr.append(chunk)
      }
      return true
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Closes standard input and waits for the exit. A host still running after `watchdog`
    /// seconds is killed (status 9), so a test of "the host stops" fails instead of hanging.
    func finish(watchdog: Double = 120) throws -> Result {
      let process = process
      DispatchQueue.global().asyncAfter(deadline: .now() + watchdog) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      }
      try? input.fileHandleForWriting.close()
      let stdout = output.fileHandleForReading.readDataToEndOfFile()
      stderr.append(error.fileHandleForReading.readDataToEndOfFile())
      process.waitUntilExit()
      return Result(
        status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
        stderr: String(decoding: stderr, as: UTF8.self))
    }
  }

  static func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "apiary-host-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Writes `files` (relative path → contents) into a new temporary directory.
  static func manifests(_ files: [String: String]) throws -> URL {
    let directory = temporaryDirectory()
    for (path, contents) in files {
      let url = directory.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(contents.utf8).write(to: url)
    }
    return directory
  }
}
