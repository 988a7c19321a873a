import FuzzSupport

/// libFuzzer entry: the input is a `.json` module manifest file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifestJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  fuzzManifest(data, size, name: "fuzz.json")
  return 0
}
