import ApiarySupport
import Foundation
import Testing

@testable import ApiaryProcess

/// Runs one test in a test process of its own, for tests that hold every thread of Swift's
/// pool, which other tests running meanwhile may hold while they wait for the pool.
///
/// ```swift
/// @Test func holdsThePool() async throws {
///   guard AloneTestProcess.isAlone else {
///     return try await AloneTestProcess.run("ChildProcessTests/holdsThePool")
///   }
///   // the test itself
/// }
/// ```
enum AloneTestProcess {
  /// Set in the test process that ``run(_:)`` starts.
  private static let marker = "APIARY_TEST_ALONE_POOL"

  /// Whether this is a test process that ``run(_:)`` started.
  static var isAlone: Bool { ProcessInfo.processInfo.environment[marker] != nil }

  /// Runs the test `filter` names (`Suite/test`) in a new test process, and expects it to pass;
  /// the process's output is the expectation's comment.
  static func run(_ filter: String) async throws {
    let output = Locked<[String]>([])
    let alone = try ChildProcess.spawn(
      executable: CommandLine.arguments[0],
      arguments: ["--testing-library", "swift-testing", "--filter", filter],
      environment: [marker: "1"], lifeline: nil,
      standardError: { line in output.withLock { $0.append(line) } })
    alone.closeInput()
    let drained = drain(alone.output, into: output)
    let exit = await alone.exit()
    await drained.value
    #expect(exit == .exited(0), "\(output.withLock { $0.joined(separator: "\n") })")
  }

  /// Reads a descriptor to its end on a thread of its own.
  private static func drain(_ descriptor: Int32, into lines: Locked<[String]>) -> Task<Void, Never>
  {
    let done = Gate()
    Thread {
      let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
      let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
      lines.withLock { $0.append(text) }
      done.open()
    }.start()
    return Task { await done.wait() }
  }
}
