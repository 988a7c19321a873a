#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Values that module files repeat from module to module (type and protocol names, activation
/// events), kept while a directory of module files is decoded, so each module shares the first
/// equal value instead of allocating its own: later passes over thousands of manifests then
/// read a few values already in cache instead of one per module. A few of the latest values
/// are kept and compared by their bytes; a value seen once costs one scan of them.
///
/// ```swift
/// let repeated = RepeatedValues()
/// JSONParser.decodeModuleFile(bytes, file: "a.json", limits: .default, repeated: repeated)
/// ```
final class RepeatedValues {
  private var strings: [String] = []
  private var lists: [[String]] = []
  /// Where the next value goes once the lists are full: the oldest is replaced.
  private var nextString = 0
  private var nextList = 0
  private static let kept = 8

  /// An earlier string spelt `utf8`, or nil.
  func string(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
    for string in strings where string.utf8.count == utf8.count {
      let same = string.utf8.withContiguousStorageIfAvailable { stored in
        guard let stored = stored.baseAddress, let bytes = utf8.baseAddress else { return false }
        return memcmp(stored, bytes, utf8.count) == 0
      }
      if same == true { return string }
    }
    return nil
  }

  /// Keeps `string` for later modules. A string short enough to be stored inline is not
  /// allocated, so it is not kept.
  func keep(_ string: String) {
    guard string.utf8.count > 15 else { return }
    Self.keep(string, in: &strings, next: &nextString)
  }

  /// An earlier list equal to `list`, else `list`, kept for later modules.
  func list(_ list: [String]) -> [String] {
    guard !list.isEmpty else { return list }
    if let earlier = lists.first(where: { $0 == list }) { return earlier }
    Self.keep(list, in: &lists, next: &nextList)
    return list
  }

  private static func keep<Value>(_ value: Value, in values: inout [Value], next: inout Int) {
    if values.count < kept {
      values.append(value)
    } else {
      values[next] = value
      next = (next + 1) % kept
    }
  }
}
