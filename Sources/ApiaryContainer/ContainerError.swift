import ApiarySupport

/// Why the container could not register or resolve a service. Each description says what went
/// wrong, where, what was expected and what was found.
///
/// ```swift
/// do { _ = try container.resolve(Clock.self) } catch { print(error) }
/// // no binding for App.Clock; registered nearby: App.SystemClock, App.Calendar
/// ```
///
/// Compare ``code`` with the codes in ``ErrorCode`` to tell failures apart (see <doc:Errors>).
public struct ContainerError: Error, CustomStringConvertible {
  /// Which failure a ``ContainerError`` reports (see ``ErrorCode``).
  public typealias Code = ErrorCode<ContainerError>

  /// Which failure this is.
  public let code: Code
  /// What the message is made from: the values of the failure named by ``code``.
  package let details: ContainerErrorDetails

  public var description: String { details.description }

  /// The same error, adding `key` (a binding whose factory needed the missing key) to the
  /// front of the chain.
  func neededBy(binding key: ServiceKey) -> ContainerError {
    guard case .notBound(let missing, var nearby) = details else { return self }
    nearby.requiredBy.insert(key, at: 0)
    return .notBound(missing, nearby: nearby)
  }

  /// The same error, naming the ``Injected`` property whose resolve found no binding.
  func neededBy(property: String, of type: Any.Type) -> ContainerError {
    guard case .notBound(let key, var nearby) = details, nearby.property == nil else {
      return self
    }
    nearby.property = "property '\(property)' of \(ServiceKey.name(of: type))"
    return .notBound(key, nearby: nearby)
  }
}

// One factory per code, with its name, so a call site reads `throw ContainerError.cycle(…)`.
extension ContainerError {
  @usableFromInline
  package static func notBound(_ key: ServiceKey, nearby: NearbyBindings) -> Self {
    Self(code: .notBound, details: .notBound(key, nearby: nearby))
  }

  package static func duplicate(_ key: ServiceKey, existingOwner: String?, newOwner: String?)
    -> Self
  {
    Self(
      code: .duplicate, details: .duplicate(key, existingOwner: existingOwner, newOwner: newOwner))
  }

  package static func doesNotConform(
    _ key: ServiceKey, implementation: Any.Type, source: SourceLocation?
  ) -> Self {
    Self(
      code: .doesNotConform,
      details: .doesNotConform(key, implementation: implementation, source: source))
  }

  @usableFromInline
  package static func cycle(_ path: [ServiceKey]) -> Self {
    Self(code: .cycle, details: .cycle(path))
  }

  package static func eagerNotSingleton(_ key: ServiceKey, scope: Scope) -> Self {
    Self(code: .eagerNotSingleton, details: .eagerNotSingleton(key, scope: scope))
  }

  package static func unknownType(_ name: String, role: String, source: SourceLocation?) -> Self {
    Self(code: .unknownType, details: .unknownType(name, role: role, source: source))
  }

  package static func notInjectable(_ name: String, source: SourceLocation?) -> Self {
    Self(code: .notInjectable, details: .notInjectable(name, source: source))
  }

  package static func factoryFailed(_ key: ServiceKey, underlying: any Error) -> Self {
    Self(code: .factoryFailed, details: .factoryFailed(key, underlying: underlying))
  }
}

// The codes, each documented where users read it.
extension ErrorCode where Domain == ContainerError {
  /// Nothing is bound to the key; `nearby` says what needed it (the bindings being built and
  /// the ``Injected`` property) and lists the closest registered keys when printed.
  public static var notBound: Self { Self("notBound") }

  /// The key is already bound in this container and the new binding is not an override.
  public static var duplicate: Self { Self("duplicate") }

  /// A created or registered instance, or a manifest service's implementation, does not
  /// conform to the type it is bound to; `source` is where a manifest declared it.
  public static var doesNotConform: Self { Self("doesNotConform") }

  /// Resolving the first key led back to it through bindings that are not finished singletons.
  public static var cycle: Self { Self("cycle") }

  /// An eager binding must be a singleton.
  public static var eagerNotSingleton: Self { Self("eagerNotSingleton") }

  /// A manifest names a type that neither code nor the Swift runtime knows.
  package static var unknownType: Self { Self("unknownType") }

  /// A manifest implementation is not a class conforming to ``Injectable``.
  package static var notInjectable: Self { Self("notInjectable") }

  /// A factory, provider, `init(resolver:)` or post-construction hook threw.
  public static var factoryFailed: Self { Self("factoryFailed") }
}

/// The values behind each ``ContainerError`` code, one case per code.
package enum ContainerErrorDetails: Sendable, CustomStringConvertible {
  /// Nothing is bound to the key; `nearby` says what needed it (the bindings being built and
  /// the ``Injected`` property) and lists the closest registered keys when printed.
  case notBound(ServiceKey, nearby: NearbyBindings)
  /// The key is already bound in this container and the new binding is not an override.
  case duplicate(ServiceKey, existingOwner: String?, newOwner: String?)
  /// A created or registered instance, or a manifest service's implementation, does not
  /// conform to the type it is bound to; `source` is where a manifest declared it.
  case doesNotConform(ServiceKey, implementation: Any.Type, source: SourceLocation?)
  /// Resolving the first key led back to it through bindings that are not finished singletons.
  case cycle([ServiceKey])
  /// An eager binding must be a singleton.
  case eagerNotSingleton(ServiceKey, scope: Scope)
  /// A manifest names a type that neither code nor the Swift runtime knows.
  case unknownType(String, role: String, source: SourceLocation?)
  /// A manifest implementation is not a class conforming to ``Injectable``.
  case notInjectable(String, source: SourceLocation?)
  /// A factory, provider, `init(resolver:)` or post-construction hook threw.
  case factoryFailed(ServiceKey, underlying: any Error)

  package var description: String {
    switch self {
    case .notBound(let key, let nearby):
      let suggestions = nearby.suggestions
      let hint =
        key.typeName.hasPrefix("Swift.Optional<")
        ? " (an Optional was inferred: write resolve(Wrapped.self) or use optional(_:))" : ""
      return "no binding for \(key)\(hint)\(nearby.neededBy); "
        + (suggestions.isEmpty
          ? "the container has no bindings near it; register one or declare it in a manifest"
          : "registered nearby: " + suggestions.joined(separator: ", "))
    case .duplicate(let key, let existing, let new):
      return "\(key) is already bound by \(Self.owner(existing)); \(Self.owner(new)) cannot "
        + "bind it again: use a different name, or register with override: true to replace it"
    case .doesNotConform(let key, let implementation, let source):
      return "\(Self.at(source))\(ServiceKey.name(of: implementation)) does not conform to "
        + "\(key.typeName), "
        + "so it cannot be bound to \(key)"
    case .cycle(let path):
      return "dependency cycle: " + path.map(\.description).joined(separator: " → ")
        + "; break it with a Lazy or Provider, or make one of them a singleton and set the "
        + "back reference in initCompleted"
    case .eagerNotSingleton(let key, let scope):
      return "\(key) is marked eager but its scope is \(scope.rawValue); only singletons "
        + "can be built eagerly"
    case .unknownType(let name, let role, let source):
      return "\(Self.at(source))\(role) type '\(name)' was not found; expected "
        + "'ModuleName.TypeName' of a type linked into the application"
    case .notInjectable(let name, let source):
      return "\(Self.at(source))implementation '\(name)' must be a class conforming to "
        + "Injectable (init(resolver:))"
    case .factoryFailed(let key, let underlying):
      return "creating \(key) failed: \(underlying)"
    }
  }

  private static func owner(_ owner: String?) -> String {
    owner.map { "module '\($0)'" } ?? "the application"
  }

  private static func at(_ source: SourceLocation?) -> String {
    source.map { "\($0): " } ?? ""
  }
}

/// The registered keys closest to one that was not found, computed only when printed so that a
/// failed resolve stays cheap.
@usableFromInline
package struct NearbyBindings: Sendable {
  let registry: Registry?
  let key: ServiceKey?
  /// The bindings being built when the key was needed, outermost first (each binding adds
  /// itself as the error passes through it, so a top-level miss costs nothing extra).
  public internal(set) var requiredBy: [ServiceKey]
  /// The ``Injected`` property that needed the key, e.g. `property 'store' of App.Editor`.
  public internal(set) var property: String?

  @usableFromInline
  init(registry: Registry? = nil, key: ServiceKey? = nil, requiredBy: [ServiceKey] = []) {
    self.registry = registry
    self.key = key
    self.requiredBy = requiredBy
  }

  /// ` (needed by property 'log' of App.Store, while building App.Notes → App.Store)`, or
  /// nothing for a top-level resolve.
  var neededBy: String {
    var parts: [String] = []
    if let property { parts.append(property) }
    if !requiredBy.isEmpty {
      parts.append("while building " + requiredBy.map(\.description).joined(separator: " → "))
    }
    return parts.isEmpty ? "" : " (needed by " + parts.joined(separator: ", ") + ")"
  }

  /// Up to three registered keys, closest first: the same type under another name or with
  /// other arguments, then types whose names are closest to the one asked for.
  public var suggestions: [String] {
    guard let registry, let key else { return [] }
    let wantedShort = Self.shortName(key.typeName)
    let ranked = registry.visibleBindings().compactMap { binding -> (Int, String)? in
      let candidate = binding.serviceKey
      if candidate.type == key.type { return (0, candidate.description) }
      let short = Self.shortName(candidate.typeName)
      let distance = editDistance(
        Array(short.lowercased().utf8), Array(wantedShort.lowercased().utf8))
      // Close enough: at most half of the longer name differs.
      guard distance <= max(2, max(short.count, wantedShort.count) / 2) else { return nil }
      return (1 + distance, candidate.description)
    }
    return ranked.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.prefix(3).map(\.1)
  }

  private static func shortName(_ name: String) -> String {
    String(name.split(separator: ".").last ?? Substring(name))
  }
}
