import Foundation
import Testing

@testable import ApiarySupport

/// Paths in messages: shortened only when the shorter path names the same file.
@Suite struct ReadablePathTests {
  /// A fresh directory holding `app/`, `plugins/libX.so` and `link`, a symbolic link to
  /// `deep/inside/`.
  static func tree() throws -> String {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("readable-path-\(UUID().uuidString)").path
    let files = FileManager.default
    try files.createDirectory(atPath: root + "/app", withIntermediateDirectories: true)
    try files.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
    try files.createDirectory(atPath: root + "/deep/inside", withIntermediateDirectories: true)
    #expect(files.createFile(atPath: root + "/plugins/libX.so", contents: Data()))
    #expect(files.createFile(atPath: root + "/deep/libY.so", contents: Data()))
    try files.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/deep/inside")
    return root
  }

  @Test func aPathToTheSameFileIsShortened() throws {
    let root = try Self.tree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    #expect(ReadablePath.of(root + "/app/../plugins/libX.so") == root + "/plugins/libX.so")
    // A missing file in the same directory: the same path too.
    #expect(ReadablePath.of(root + "/app/../plugins/libZ.so") == root + "/plugins/libZ.so")
  }

  @Test func aParentOfASymbolicLinkIsKept() throws {
    let root = try Self.tree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    // `link/..` is `deep`, not `root`: the text alone would name `root/libY.so`.
    #expect(ReadablePath.of(root + "/link/../libY.so") == root + "/link/../libY.so")
    #expect(ReadablePath.of(root + "/link/../libW.so") == root + "/link/../libW.so")
  }

  @Test func aPathThatCannotBeCheckedIsKept() {
    #expect(ReadablePath.of("no-such-dir/../plugins/libX.so") == "no-such-dir/../plugins/libX.so")
    #expect(ReadablePath.of("plugins/libX.so") == "plugins/libX.so")
  }
}
