import ApiaryManifest

/// A JSON-RPC error object: what a request ended with when the peer could not answer it.
///
/// Codes from -32768 to -32000 are JSON-RPC's; Apiary's own codes are listed in
/// `docs/wire-protocol.md` and as static members here.
///
/// ```swift
/// throw RPCError(.methodNotFound, "no method 'reboot'")
/// ```
package struct RPCError: Error, Sendable, Hashable, CustomStringConvertible {
  package var code: Int
  package var message: String

  package init(_ code: Int, _ message: String) {
    self.code = code
    self.message = message
  }

  package var description: String { message }

  /// The body was not JSON.
  package static let parseError = -32700
  /// The JSON was not a request, notification or response.
  package static let invalidRequest = -32600
  package static let methodNotFound = -32601
  /// The parameters do not fit the method (missing or of another kind).
  package static let invalidParams = -32602
  package static let internalError = -32603
  /// The action, hook or handler threw; the message is its error's description.
  package static let failed = -32000
  /// A parameter, result or payload is not representable on the wire.
  package static let notRepresentable = -32001
  /// The handshake found another protocol version, Apiary version or ABI hash.
  package static let incompatible = -32002
  /// The mediator refused the call (no such target or action, not remote, bad parameters…).
  package static let refused = -32003
}
