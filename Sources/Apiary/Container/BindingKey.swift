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

  /// Dictionaries hash with this. The common key (no name, no arguments) hashes like a bare
  /// `ObjectIdentifier`, one multiply instead of a full SipHash round, which is most of the
  /// cost of a cached lookup. Equal keys get equal values, so it is a valid hash.
  @inlinable
  func _rawHashValue(seed: Int) -> Int {
    if name == nil, arguments == ObjectIdentifier(Void.self) {
      return type._rawHashValue(seed: seed)
    }
    var hasher = Hasher()
    hasher.combine(seed)
    hash(into: &hasher)
    return hasher.finalize()
  }
}
