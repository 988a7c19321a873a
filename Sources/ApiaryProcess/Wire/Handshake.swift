import ApiaryManifest

/// The first exchange on a connection: `initialize`, from the host. Both sides name the wire
/// protocol version; children built on Apiary also name the Apiary version and ABI hash they
/// were built with, which must equal the host's (see `docs/wire-protocol.md`).
///
/// ```swift
/// let facts = Handshake(apiary: "1.4.0", abi: "e2f4…")
/// try facts.check(answer)  // throws RPCError(-32002) on a mismatch
/// ```
package struct Handshake: Sendable, Hashable {
  /// The version of `docs/wire-protocol.md` this build speaks.
  package static let protocolVersion = 1

  /// The Apiary version and ABI hash of this process.
  package var apiary: String
  package var abi: String

  package init(apiary: String, abi: String) {
    self.apiary = apiary
    self.abi = abi
  }

  /// What this side sends (`initialize`'s params, or its result).
  package func message(module: String? = nil, pid: Int32? = nil) -> [String: any Sendable] {
    var message: [String: any Sendable] = [
      "protocol": Self.protocolVersion, "apiary": apiary, "abi": abi,
    ]
    if let module { message["module"] = module }
    if let pid { message["pid"] = Int(pid) }
    return message
  }

  /// Checks the other side's message: the protocol version always, the Apiary version and ABI
  /// hash when it names them.
  package func check(_ other: JSONValue) throws(RPCError) {
    let version = other["protocol"]?.intValue
    guard version == Self.protocolVersion else {
      throw RPCError(
        RPCError.incompatible,
        "wire protocol \(version.map(String.init) ?? "missing"); this side speaks "
          + "\(Self.protocolVersion)")
    }
    if let theirs = other["apiary"]?.stringValue, theirs != apiary {
      throw RPCError(RPCError.incompatible, "built with Apiary \(theirs); this side is \(apiary)")
    }
    if let theirs = other["abi"]?.stringValue, theirs != abi {
      throw RPCError(RPCError.incompatible, "built with ABI hash \(theirs); this side has \(abi)")
    }
  }
}
