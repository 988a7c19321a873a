/// The hashed key of a binding: type identity, name and argument tuple identity. Cheap to build
/// and to hash (two pointers and an optional string), unlike ``ServiceKey``'s metatypes.
struct BindingKey: Hashable, Sendable {
  let type: ObjectIdentifier
  let name: String?
  let arguments: ObjectIdentifier

  init<T, Args>(_ type: T.Type, name: String?, arguments: Args.Type) {
    self.type = ObjectIdentifier(type)
    self.name = name
    self.arguments = ObjectIdentifier(arguments)
  }
}
