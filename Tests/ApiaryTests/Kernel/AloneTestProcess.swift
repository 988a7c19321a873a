import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs one test in a test process of its own, for a test that holds every thread of Swift's
/// pool: other tests running meanwhile in the shared process would hold threads of it too.
///
/// ```swift
/// guard AloneTestProcess.isAlone else {
///   let (status, output) = await AloneTestProcess.run("EventTimeoutTests/holdsThePool")
///   #expect(status == 0, "\(output)")
///   return
/// }
/// ```
enum AloneTestProcess {
  /// Set in the test process that ``run(_:)`` starts.
  static let variable = "APIARY_TEST_ALONE_POOL"

  static var isAlone: Bool { ProcessInfo.processInfo.environment[variable] != nil }

  /// Runs this test binary filtered to `test`; its exit status and everything it printed. The
  /// output is read on a thread of its own, so no thread of the pool waits for it.
  static func run(_ test: String) async -> (status: Int32, output: String) {
    await withCheckedContinuation { continuation in
      Thread {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", test]
        process.environment = ProcessInfo.processInfo.environment.merging([variable: "1"]) {
          $1
        }
        let pipe = Pipe()
        (process.standardOutput, process.standardError) = (pipe, pipe)
        guard (try? process.run()) != nil else {
          return continuation.resume(returning: (-1, "could not start \(CommandLine.arguments[0])"))
        }
        let output = readToEnd(pipe.fileHandleForReading.fileDescriptor)
        process.waitUntilExit()
        continuation.resume(
          returning: (process.terminationStatus, String(decoding: output, as: UTF8.self)))
      }.start()
    }
  }

  /// Everything `descriptor` yields until its end. A read a signal interrupts (`EINTR`) is
  /// retried, where `readDataToEndOfFile` traps; any other failure ends the output.
  static func readToEnd(_ descriptor: Int32) -> Data {
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return output }
      output.append(contentsOf: buffer[..<count])
    }
  }
}
