import Foundation
import Testing

/// The plugin ABI hash recorded in `ApiaryPlugin.h` must match the sources it covers, or plugins
/// built against changed sources would be accepted by a host they are not compatible with.
@Suite struct ABIHashTests {
  @Test func recordedHashMatchesTheSources() throws {
    let process = Process()
    process.executableURL = HostProcess.root.appendingPathComponent("Scripts/abi-hash")
    process.arguments = ["--check"]
    let error = Pipe()
    process.standardError = error
    process.standardOutput = Pipe()
    try process.run()
    let message = String(
      decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(message)")
  }

  @Test func hostReportsTheRecordedHash() throws {
    let header = try String(
      contentsOf: HostProcess.root.appendingPathComponent(
        "Sources/ApiaryPlugin/include/ApiaryPlugin.h"),
      encoding: .utf8)
    let result = try HostProcess.run(["plugin", "host"])
    #expect(result.status == 0, "\(result.stderr)")
    let abiLine = result.stdout.split(separator: "\n").first { $0.hasPrefix("abi ") }
    let hash = try #require(abiLine?.split(separator: " ").last)
    #expect(header.contains("#define APIARY_ABI_HASH \"\(hash)\""))
  }
}
