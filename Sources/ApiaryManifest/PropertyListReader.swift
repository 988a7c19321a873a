/// Reads XML or binary property lists into the same tree the JSON parser builds, so one decoder
/// serves both. Both readers are Apiary's own (Foundation's crashes on some binary inputs and
/// has no limits). Property lists carry no positions, so problems name key paths only.
enum PropertyListReader {
  /// Whether `bytes` look like a property list rather than JSON (for files named neither
  /// `.json` nor `.plist`).
  static func looksLikePropertyList(_ bytes: UnsafeRawBufferPointer) -> Bool {
    if bytes.starts(with: "bplist".utf8) { return true }
    let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    return first == UInt8(ascii: "<")
  }

  static func parse(_ bytes: UnsafeRawBufferPointer, file: String, limits: ManifestLimits) -> (
    root: ManifestNode?, problems: [ManifestProblem]
  ) {
    if bytes.starts(with: "bplist".utf8) {
      return BinaryPropertyList.parse(bytes, file: file, limits: limits)
    }
    return XMLPropertyList.parse(bytes, file: file, limits: limits)
  }
}
