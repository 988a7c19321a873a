import Foundation
import Testing

/// Manifests a user might be handed: they must give problems, never crash, hang or leak files.
@Suite struct HostileManifestHostTests {
  static let app = #"{"schemaVersion": 1, "name": "Hostile", "scheme": "hostile"}"#

  /// A binary property list with 2-byte offsets and 1-byte references.
  static func binaryPropertyList(_ objects: [[UInt8]], root: Int = 0) -> Data {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
      offsets.append(bytes.count)
      bytes += object
    }
    let table = bytes.count
    for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
    func eight(_ value: Int) -> [UInt8] {
      (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) }
    }
    bytes += [0, 0, 0, 0, 0, 0, 2, 1] + eight(objects.count) + eight(root) + eight(table)
    return Data(bytes)
  }

  func write(_ data: Data, _ path: String, in directory: URL) throws {
    let url = directory.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
  }

  /// The binary plist holding a set crashed every command (SIGSEGV inside Foundation).
  @Test func setInBinaryPropertyListIsAProblem() throws {
    let directory = try HostProcess.manifests(["app.json": Self.app])
    try write(
      Self.binaryPropertyList([[0xC1, 1], [0x10, 1]]), "modules/set.plist", in: directory)
    for command in [["validate", directory.path], ["run", "--manifests", directory.path]] {
      let result = try HostProcess.run(command)
      #expect(result.status == 1, "\(command): \(result.stderr)")
      #expect(
        (result.stdout + result.stderr).contains(
          "set.plist: expected string, number, boolean, array or dictionary, found set"))
    }
  }

  /// 473 bytes standing for 8^39 values took minutes and gigabytes.
  @Test func sharedReferenceBombStopsAtTheLimit() throws {
    var objects: [[UInt8]] = [[0x51, UInt8(ascii: "x")]]
    for level in 1..<40 { objects.append([0xA8] + [UInt8](repeating: UInt8(level - 1), count: 8)) }
    let directory = try HostProcess.manifests(["app.json": Self.app])
    try write(Self.binaryPropertyList(objects, root: 39), "modules/bomb.plist", in: directory)
    let result = try HostProcess.run(["validate", directory.path])
    #expect(result.status == 1)
    #expect(result.stdout.contains("more than 1000000 values"), "\(result.stdout)")
    #expect(result.stdout.contains(#"raise "limits": {"values": …}"#))
  }

  /// `.json` is JSON even when it starts with `bplist`; limits are raised in `app.json`.
  @Test func formatByExtensionAndRaisedLimits() throws {
    let module =
      #"{"schemaVersion": 1, "modules": [{"name": "a", "type": "LoggingPlugin.LoggingModule"}]}"#
    let directory = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "L", "scheme": "l", "limits": {"fileSize": 40}}"#,
      "modules/a.json": module,
      "modules/b.json": "bplist00",
    ])
    let result = try HostProcess.run(["validate", directory.path])
    #expect(result.status == 1)
    #expect(result.stdout.contains("a.json: file is \(module.utf8.count) bytes, more than 40"))
    #expect(result.stdout.contains("b.json:1:1: expected a value, found a letter"))
    #expect(!result.stdout.contains("bplist"))
  }

  @Test func pathsOutsideTheManifestsDirectoryNeedPermission() throws {
    let outside = HostProcess.temporaryDirectory()
    try Data("root:x:0:0:secret-hash\n".utf8).write(to: outside.appendingPathComponent("passwd"))
    let directory = try HostProcess.manifests([
      "app.json":
        #"{"schemaVersion": 1, "name": "O", "scheme": "o", "modules": ["modules", "../x.json", "\#(outside.path)/passwd", "linked"]}"#,
      "modules/ok.json": #"{"schemaVersion": 1, "modules": []}"#,
    ])
    try FileManager.default.createSymbolicLink(
      atPath: directory.appendingPathComponent("linked").path, withDestinationPath: outside.path)
    try FileManager.default.createSymbolicLink(
      atPath: directory.appendingPathComponent("modules/passwd.json").path,
      withDestinationPath: outside.appendingPathComponent("passwd").path)
    let result = try HostProcess.run(["validate", directory.path])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(result.stdout)")
    #expect(lines.filter { $0.contains("outside the manifests directory") }.count == 4)
    #expect(lines.contains { $0.contains("modules[1]: is a path outside") })
    #expect(lines.contains { $0.contains("modules[2]: is a path outside") })
    #expect(lines.contains { $0.contains("modules[3]: goes through a symbolic link") })
    #expect(lines.contains { $0.contains("passwd.json: is a symbolic link to a file outside") })
    #expect(!result.stdout.contains("secret"))

    // Allowed, the file is read, and its bytes are still never quoted.
    try Data(
      #"{"schemaVersion": 1, "name": "O", "scheme": "o", "allowOutsidePaths": true}"#.utf8
    ).write(to: directory.appendingPathComponent("app.json"))
    let allowed = try HostProcess.run(["validate", directory.path])
    #expect(allowed.status == 1)
    #expect(allowed.stdout.contains("passwd.json:1:1: expected a value, found a letter"))
    #expect(!allowed.stdout.contains("secret") && !allowed.stdout.contains("root"))
  }

  /// A symbolic link that leads nowhere (to a missing file, or round in a loop) says so, also
  /// inside the manifests directory; it was reported as a link to a file outside it.
  @Test func brokenSymbolicLinksSayWhyTheyCannotBeRead() throws {
    let directory = try HostProcess.manifests([
      "app.json":
        #"{"schemaVersion": 1, "name": "L", "scheme": "l", "modules": ["modules", "loop"]}"#,
      "modules/ok.json": #"{"schemaVersion": 1, "modules": []}"#,
    ])
    let links = [
      ("modules/dangling.json", "missing.json"), ("modules/self.json", "self.json"),
      ("loop", "loop"),
    ]
    for (link, target) in links {
      try FileManager.default.createSymbolicLink(
        atPath: directory.appendingPathComponent(link).path, withDestinationPath: target)
    }
    let result = try HostProcess.run(["validate", directory.path])
    #expect(result.status == 1)
    #expect(!result.stdout.contains("outside"), "\(result.stdout)")
    #expect(
      result.stdout.contains("dangling.json: cannot read this file: No such file or directory"))
    #expect(
      result.stdout.contains("self.json: cannot read this file: Too many levels of symbolic links"))
    #expect(
      result.stdout.contains(
        "modules[1]: too many levels of symbolic links: \(directory.path)/loop"))
  }

  @Test func devicesAndPipesAreNotRead() throws {
    let directory = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "D", "scheme": "d", "modules": ["zero.json"]}"#
    ])
    try FileManager.default.createSymbolicLink(
      atPath: directory.appendingPathComponent("zero.json").path, withDestinationPath: "/dev/zero")
    try Data(
      #"{"schemaVersion": 1, "name": "D", "scheme": "d", "modules": ["zero.json"], "allowOutsidePaths": true}"#
        .utf8
    ).write(to: directory.appendingPathComponent("app.json"))
    let result = try HostProcess.run(["validate", directory.path])
    #expect(result.status == 1)
    #expect(result.stdout.contains("zero.json: not a regular file"), "\(result.stdout)")
  }
}
