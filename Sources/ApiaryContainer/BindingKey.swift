/// The hashed key of a binding: type identity, name and argument tuple identity. Cheap to build
/// and to hash (two pointers and an optional string), unlike ``ServiceKey``'s metatypes.
@usableFromInline
struct BindingKey: Hashable, Sendable {
  @usableFromInline let type: ObjectIdentifier
  @usableFromInline let name: String?
  @usableFromInline let arguments: ObjectIdentifier

  @inlinable @inline(__always)
  init<T, Args>(_ type: T.Type, name: String?, arguments: Args.Type) {
    self.type = ObjectIdentifier(type)
    self.name = name
    self.arguments = ObjectIdentifier(arguments)
  }

  /// Dictionaries hash with this. The common key (no name, no arguments) is a type's metadata
  /// address mixed with splitmix64's finaliser (a few instructions instead of SipHash, which was
  /// a tenth of a cached resolve); keys are types, not attacker-chosen data. Equal keys get
  /// equal values, so it is a valid hash.
  @inlinable
  func _rawHashValue(seed: Int) -> Int {
    if name == nil, arguments == ObjectIdentifier(Void.self) {
      var x = UInt64(UInt(bitPattern: type)) ^ UInt64(UInt(bitPattern: seed))
      x = (x ^ (x >> 30)) &* 0xbf58_476d_1ce4_e5b9
      x = (x ^ (x >> 27)) &* 0x94d0_49bb_1331_11eb
      return Int(truncatingIfNeeded: x ^ (x >> 31))
    }
    var hasher = Hasher()
    hasher.combine(seed)
    hash(into: &hasher)
    return hasher.finalize()
  }
}
