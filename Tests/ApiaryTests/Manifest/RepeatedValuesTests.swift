import Testing

@testable import ApiaryManifest

/// The values module files repeat, shared while a directory is decoded: an earlier value is
/// returned only for the same bytes, and a few of the latest are kept.
@Suite("Manifest: values repeated across module files")
struct RepeatedValuesTests {
  private func earlier(_ repeated: RepeatedValues, _ text: String) -> String? {
    var text = text
    return text.withUTF8 { repeated.string($0) }
  }

  private static func storage(of string: String) -> UnsafePointer<UInt8>? {
    string.utf8.withContiguousStorageIfAvailable(\.baseAddress) ?? nil
  }

  @Test("a kept string is found by its bytes only, and a short one is not kept")
  func strings() {
    let repeated = RepeatedValues()
    let type = "ApiaryBench.QuietModule"
    #expect(earlier(repeated, type) == nil)
    repeated.keep(type)
    let found = earlier(repeated, type)
    #expect(found == type)
    #expect(Self.storage(of: found ?? "") == Self.storage(of: type))  // the same one
    #expect(earlier(repeated, "ApiaryBench.QuietModulf") == nil)
    #expect(earlier(repeated, "ApiaryBench.QuietModul") == nil)
    repeated.keep("P.Short")
    #expect(earlier(repeated, "P.Short") == nil)
  }

  @Test("the latest eight strings are kept, the oldest replaced first")
  func latestKept() {
    let repeated = RepeatedValues()
    let names = (0..<9).map { "ApiaryBench.Module\($0)" }
    for name in names { repeated.keep(name) }
    #expect(earlier(repeated, names[0]) == nil)
    #expect(names.dropFirst().allSatisfy { earlier(repeated, $0) == $0 })
  }

  @Test("an equal list is the earlier one; others are kept as they are")
  func lists() {
    let repeated = RepeatedValues()
    let first = repeated.list(["bench.tick"])
    let second = repeated.list(["bench.tick"])
    #expect(second == first)
    #expect(
      second.withUnsafeBufferPointer(\.baseAddress) == first.withUnsafeBufferPointer(\.baseAddress))
    #expect(repeated.list(["bench.tock"]) == ["bench.tock"])
    #expect(repeated.list(["bench.tick", "x"]) == ["bench.tick", "x"])
    #expect(repeated.list([]) == [])
  }
}
