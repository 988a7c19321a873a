import FuzzSupport

/// libFuzzer entry: the input is what a process-placed child writes to its standard output,
/// which the host reads as frames of JSON-RPC messages.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWireEntry(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  fuzzWire(data, size)
  return 0
}
