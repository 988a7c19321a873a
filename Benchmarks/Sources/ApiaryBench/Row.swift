/// One line of the results table: a case measured on Apiary and on a baseline or peer in the same
/// run. `apiary` is nil (with `note` saying why) when Apiary cannot run the case yet.
struct Row: Sendable {
  var section: String
  var name: String
  var apiary: Measurement?
  var peerName: String
  var peer: Measurement?
  var note: String?

  /// Apiary's median over the peer's: below 1 means Apiary is faster.
  var ratio: Double? {
    guard let apiary, let peer, peer.median > 0 else { return nil }
    return apiary.median / peer.median
  }
}
