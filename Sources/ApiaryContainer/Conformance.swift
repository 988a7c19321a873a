/// Whether a type conforms to a protocol (or inherits from a class) known only at run time, as
/// manifest services name them, without creating an instance.
package enum Conformance {
  /// True when values of `implementation` can be used as `service`: a subclass of a class, a
  /// type conforming to a protocol or a composition of protocols, or the type itself.
  package static func check(_ implementation: Any.Type, _ service: Any.Type) -> Bool {
    func opened<S>(_: S.Type) -> Bool {
      if implementation is S.Type { return true }
      // `S` is an existential (`any P`): ask whether the metatype is an `any P.Type`, the
      // existential metatype, found by appending its mangling (`Xp`) to the existential's.
      guard let name = _mangledTypeName(S.self), let metatype = _typeByName(name + "Xp")
      else { return false }
      func instance<M>(_: M.Type) -> Bool { implementation is M }
      return _openExistential(metatype, do: instance)
    }
    return _openExistential(service, do: opened)
  }
}
