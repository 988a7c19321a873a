import Foundation
import Testing

@testable import ApiaryProcess

#if canImport(Glibc)
  import Glibc
#endif

/// The environment a child starts with: the compact Swift backtrace by default, a
/// `SWIFT_BACKTRACE` the user set passed unchanged.
@Suite struct ChildEnvironmentTests {
  static let compact =
    "threads=crashed,registers=none,images=none,limit=16,top=0,color=no,interactive=no,"
    + "output-to=stderr"

  @Test func withoutTheUsersSettingAChildGetsTheCompactBacktrace() {
    let variables = ChildEnvironment.variables(
      host: ["PATH": "/bin", "HOME": "/root"], adding: ["HOME": "/tmp"])
    #expect(variables == ["PATH": "/bin", "HOME": "/tmp", "SWIFT_BACKTRACE": Self.compact])
    #expect(ChildEnvironment.compactBacktrace == Self.compact)
  }

  /// Whatever the user set, also nothing (`SWIFT_BACKTRACE=`), and whether in the host's
  /// environment or the caller's additions.
  @Test(arguments: ["preset=full", "enable=no", ""])
  func theUsersSettingPassesUnchanged(_ setting: String) {
    #expect(
      ChildEnvironment.variables(host: ["SWIFT_BACKTRACE": setting, "PATH": "/bin"], adding: [:])
        == ["SWIFT_BACKTRACE": setting, "PATH": "/bin"])
    #expect(
      ChildEnvironment.variables(host: ["PATH": "/bin"], adding: ["SWIFT_BACKTRACE": setting])
        == ["SWIFT_BACKTRACE": setting, "PATH": "/bin"])
  }

  /// A spawned child sees it: the compact setting unless this test process has one (then that
  /// one), and the caller's own over both.
  @Test func aSpawnedChildSeesIt() throws {
    let inherited = ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] ?? Self.compact
    #expect(try Self.backtraceSetting(adding: [:]) == inherited)
    #expect(
      try Self.backtraceSetting(adding: ["SWIFT_BACKTRACE": "preset=full"]) == "preset=full")
  }

  /// What a `/bin/sh` child spawned with `extra` finds in `SWIFT_BACKTRACE` (`unset` if none).
  static func backtraceSetting(adding extra: [String: String]) throws -> String {
    let child = try ChildProcess.spawn(
      executable: "/bin/sh", arguments: ["-c", #"printf '%s' "${SWIFT_BACKTRACE-unset}""#],
      environment: extra, standardError: { _ in })
    var buffer = [UInt8](repeating: 0, count: 256)
    var received: [UInt8] = []
    while true {
      let count = buffer.withUnsafeMutableBytes { read(child.output, $0.baseAddress, 256) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      received += buffer[0..<count]
    }
    child.closeInput()
    return String(decoding: received, as: UTF8.self)
  }
}
