/// The checked parameters an action receives: declared defaults are filled in and URL strings
/// are converted to the declared kinds, so the typed accessors only fail when an action reads a
/// key its manifest does not declare (or declares as `any`).
///
/// ```swift
/// "create": .sync { target, params in
///   let title = try params.string("title")
///   let tags: [String] = try params.value("tags", default: [])
///   return try target.create(title: title, tags: tags)
/// }
/// ```
public struct Parameters: Sendable {
  /// Every parameter, by name.
  public let values: [String: any Sendable]
  /// The target and action these parameters were passed to, for error messages.
  public let target: String
  public let action: String
  /// Where the call came from; for the application fallback, the origin of the call that found
  /// no action.
  public let origin: ActionCall.Origin

  package init(
    _ values: [String: any Sendable], target: String = "", action: String = "",
    origin: ActionCall.Origin = .local
  ) {
    self.values = values
    self.target = target
    self.action = action
    self.origin = origin
  }

  /// The raw value at `key`, if present.
  package subscript(key: String) -> (any Sendable)? { values[key] }

  /// The value at `key` as a `V`; throws when it is missing or of another type.
  public func value<V>(_ key: String, as type: V.Type = V.self) throws(MediatorError) -> V {
    guard let raw = values[key] else {
      throw .missingParameter(
        target: target, action: action, key: key, expected: String(describing: V.self))
    }
    guard let value = raw as? V else {
      throw .wrongParameterType(
        target: target, action: action, key: key, expected: String(describing: V.self),
        found: MediatorError.typeName(of: raw))
    }
    return value
  }

  /// The value at `key` as a `V`, or `fallback` when it is missing; throws on another type.
  public func value<V>(_ key: String, default fallback: V) throws(MediatorError) -> V {
    values[key] == nil ? fallback : try value(key, as: V.self)
  }

  public func string(_ key: String) throws(MediatorError) -> String { try value(key) }
  public func int(_ key: String) throws(MediatorError) -> Int { try value(key) }
  public func double(_ key: String) throws(MediatorError) -> Double { try value(key) }
  public func bool(_ key: String) throws(MediatorError) -> Bool { try value(key) }
}
