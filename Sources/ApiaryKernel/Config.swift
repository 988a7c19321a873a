import ApiaryManifest

/// A configuration object from a manifest with typed accessors whose errors name the owner and
/// the key.
///
/// ```swift
/// let limit = try context.config.int("maxTitleLength", default: 120)
/// let directory = try context.config.string("directory")  // throws ConfigError.missing
/// ```
public struct Config: Sendable, Hashable {
  /// The module name, or `application` for the application's config.
  public let owner: String
  package let values: [String: JSONValue]

  package init(owner: String, values: [String: JSONValue]) {
    self.owner = owner
    self.values = values
  }

  /// The raw value at `key`, if present.
  package subscript(key: String) -> JSONValue? { values[key] }

  public func string(_ key: String, default fallback: String? = nil) throws(ConfigError) -> String {
    try read(key, "string", fallback) { $0.stringValue }
  }

  public func int(_ key: String, default fallback: Int? = nil) throws(ConfigError) -> Int {
    try read(key, "integer", fallback) { $0.intValue }
  }

  public func double(_ key: String, default fallback: Double? = nil) throws(ConfigError) -> Double {
    try read(key, "number", fallback) { $0.doubleValue }
  }

  public func bool(_ key: String, default fallback: Bool? = nil) throws(ConfigError) -> Bool {
    try read(key, "boolean", fallback) { $0.boolValue }
  }

  public func strings(_ key: String, default fallback: [String]? = nil) throws(ConfigError)
    -> [String]
  {
    try read(key, "array of strings", fallback) { value in
      guard let items = value.arrayValue else { return nil }
      let strings = items.compactMap(\.stringValue)
      return strings.count == items.count ? strings : nil
    }
  }

  private func read<T>(
    _ key: String, _ expected: String, _ fallback: T?, _ convert: (JSONValue) -> T?
  ) throws(ConfigError) -> T {
    guard let value = values[key], value != .null else {
      if let fallback { return fallback }
      throw .missing(owner: owner, key: key, expected: expected)
    }
    guard let converted = convert(value) else {
      throw .typeMismatch(owner: owner, key: key, expected: expected, found: value.kindName)
    }
    return converted
  }
}

/// A configuration value that is missing or has the wrong type.
public enum ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
  case missing(owner: String, key: String, expected: String)
  case typeMismatch(owner: String, key: String, expected: String, found: String)

  public var description: String {
    switch self {
    case .missing(let owner, let key, let expected):
      "config of '\(owner)': missing key '\(key)' (expected \(expected))"
    case .typeMismatch(let owner, let key, let expected, let found):
      "config of '\(owner)': key '\(key)' expected \(expected), found \(found)"
    }
  }
}
