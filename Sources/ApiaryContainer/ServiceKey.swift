/// What a service is resolved by: a type, an optional name and the types of runtime arguments.
///
/// A ``CustomScope`` keeps its instances by key; errors and binding listings print it, as in
/// `NotebookKit.NoteStore named "primary"`. The type name is computed only when the key is
/// printed, so building a key costs nothing.
public struct ServiceKey: Sendable, Hashable, CustomStringConvertible {
  /// The type the service is resolved by (a protocol's existential type or a concrete type).
  package let type: Any.Type
  /// The binding's name, or nil for the unnamed binding.
  package let name: String?
  /// The tuple type of the runtime arguments; `Void` when the binding takes none.
  package let arguments: Any.Type

  @usableFromInline
  package init(_ type: Any.Type, name: String? = nil, arguments: Any.Type = Void.self) {
    self.type = type
    self.name = name
    self.arguments = arguments
  }

  /// The fully qualified type name, e.g. `NotebookKit.NoteStore`.
  package var typeName: String { Self.name(of: type) }

  public var description: String {
    var text = typeName
    if let name { text += " named \"\(name)\"" }
    if arguments != Void.self { text += " with arguments \(Self.name(of: arguments))" }
    return text
  }

  public static func == (lhs: ServiceKey, rhs: ServiceKey) -> Bool {
    lhs.type == rhs.type && lhs.name == rhs.name && lhs.arguments == rhs.arguments
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type))
    hasher.combine(name)
    hasher.combine(ObjectIdentifier(arguments))
  }

  /// A readable name for `type`: `Module.Name`, without the `any ` prefix of existentials.
  static func name(of type: Any.Type) -> String {
    let text = _typeName(type, qualified: true)
    return text.hasPrefix("any ") ? String(text.dropFirst(4)) : text
  }
}
