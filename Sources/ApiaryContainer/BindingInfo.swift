import ApiarySupport

/// One binding as `apiary inspect` shows it.
///
/// ```swift
/// for info in container.bindings {
///   print(info.key, info.scope, info.owner ?? "application", info.kind)
/// }
/// ```
package struct BindingInfo: Sendable, CustomStringConvertible {
  /// How a binding produces its instance.
  package enum Kind: Sendable, CustomStringConvertible {
    /// A fixed instance.
    case instance
    /// A factory closure.
    case factory
    /// A ``ServiceProvider`` object.
    case provider
    /// The instance of another binding, exposed under this key as well.
    case alias(of: ServiceKey)
    /// A manifest `services` entry naming an ``Injectable`` implementation.
    case manifest(implementation: String)
    /// A factory whose instances a ``CustomScope`` keeps.
    case customScope(String)
    /// Stands in for a lazy module's declared service until the module wakes: the first resolve
    /// wakes it, and the module's own binding of the key replaces this one.
    case placeholder(implementation: String)

    var isPlaceholder: Bool {
      if case .placeholder = self { true } else { false }
    }

    package var description: String {
      switch self {
      case .instance: "instance"
      case .factory: "factory"
      case .provider: "provider"
      case .alias(let target): "alias of \(target)"
      case .manifest(let implementation): "manifest → \(implementation)"
      case .customScope(let scope): "factory in custom scope \(scope)"
      case .placeholder(let implementation): "placeholder → \(implementation) (module dormant)"
      }
    }
  }

  package let key: ServiceKey
  package let scope: Scope
  /// The module that registered it, or nil for the application.
  package let owner: String?
  package let kind: Kind
  package let isEager: Bool
  /// Whether a shared (singleton or weak) instance currently exists.
  package let isBuilt: Bool
  /// Where a manifest declared it.
  package let source: SourceLocation?
  /// Its rank among several providers of the key, when registered with one.
  package let rank: Int?

  package var description: String {
    "\(key) [\(scope.rawValue)\(isEager ? ", eager" : "")\(isBuilt ? ", built" : "")"
      + "\(rank.map { ", rank \($0)" } ?? "")] "
      + "\(kind), owner \(owner ?? "application")"
  }
}
