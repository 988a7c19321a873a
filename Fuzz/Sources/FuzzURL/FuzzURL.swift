import FuzzSupport

/// libFuzzer entry: the input is a URL given to `Mediator.open`, as `apiary call` and
/// `apiary run` pass what users type.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  fuzzOpen(String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
  return 0
}
