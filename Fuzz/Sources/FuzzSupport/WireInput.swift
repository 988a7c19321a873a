import Foundation

@testable import ApiaryManifest
@testable import ApiaryProcess

/// Feeds one fuzzer input to the host's reading of a process-placed child's output, as
/// `RPCConnection` does it but on this thread: the bytes arrive on a pipe, `FrameReader` cuts
/// them into frames, and each body is decoded as an `RPCMessage` and answered the way the
/// host answers it (an error response to an unreadable one, a reply echoing a request's id and
/// its parameters read as a call's or an event's, a result checked as the handshake's answer,
/// read as `setUp`'s and an event report, matched against each declared `returns` kind and
/// made plain values as a forwarded call's result). Errors are typed
/// (`FrameError`, `RPCError`); a crash, trap or hang is a finding.
///
/// `@testable`: the wire types and `JSONValue`'s accessors are `package` declarations of the
/// Apiary package; `Scripts/fuzz` builds in debug, where SwiftPM compiles modules for testing.
///
/// This is a fuzzing harness, not product code: its `fatalError`s are how it reports a failure
/// of the harness itself.
public func fuzzWire(_ data: UnsafePointer<UInt8>, _ size: Int) {
  var ends: [Int32] = [-1, -1]
  guard pipe(&ends) == 0 else { fatalError("pipe: \(errno)") }
  defer { close(ends[0]) }
  // What a pipe holds without a reader (`-max_len` in Scripts/fuzz is 16 KiB): no thread reads
  // while this writes.
  let size = min(size, 1 << 16)
  var written = 0
  while written < size {
    let count = write(ends[1], data + written, size - written)
    guard count > 0 else { fatalError("write to pipe: \(errno)") }
    written += count
  }
  close(ends[1])
  var reader = FrameReader(descriptor: ends[0])
  do {
    while let body = try reader.next() { answer(body) }
  } catch {
    _ = error.description
  }
}

/// What the host does with one frame's body from a child.
private func answer(_ body: [UInt8]) {
  let message: RPCMessage
  do {
    message = try RPCMessage(body)
  } catch {
    _ = RPCMessage.error(id: .null, error)
    return
  }
  switch message {
  case .response(_, .success(let result)):
    do {
      try handshake.check(result)
    } catch {
      _ = error.description
    }
    _ = result["events"]?.arrayValue?.compactMap(\.stringValue)
    _ = result["failures"]?.arrayValue?.map {
      "\($0["module"]?.stringValue ?? ""): \($0["message"]?.stringValue ?? "")"
    }
    for kind in ParameterManifest.Kind.allCases { _ = ProcessTarget.matches(result, kind) }
    _ = result.plainValue
  case .response(_, .failure(let error)):
    _ = error.description
  case .request(let id, let method, let params):
    _ = RPCMessage.result(id: id, "null")
    _ = RPCMessage.error(id: id, RPCError(RPCError.methodNotFound, "no method '\(method)'"))
    _ = params["target"]?.stringValue
    _ = CallService.values(params["params"])
    _ = CallService.values(params["payload"])
  case .notification(let method, _):
    _ = method
  }
}

private let handshake = Handshake(apiary: "1.4.0", abi: "3f2a9c")
