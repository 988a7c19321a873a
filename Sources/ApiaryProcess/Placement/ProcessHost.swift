import ApiarySupport

/// What this process tells children in the handshake: its Apiary version and ABI hash. The
/// host command sets it once at startup from the plugin header's facts.
package enum ProcessHost {
  private static let facts = Locked(Handshake(apiary: "0.0.0", abi: ""))

  package static var handshake: Handshake {
    get { facts.withLock { $0 } }
    set { facts.withLock { $0 = newValue } }
  }
}
