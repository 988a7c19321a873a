import FuzzSupport

/// libFuzzer entry: the input is a `.plist` module manifest file (XML or binary).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifestPlist(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  fuzzManifest(data, size, name: "fuzz.plist")
  return 0
}
