import FuzzSupport

/// libFuzzer entry: the input is a plugin library file (ELF) the load gate checks, and an
/// `apiary_plugin` descriptor section.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPluginGateEntry(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  fuzzPluginGate(data, size)
  return 0
}
