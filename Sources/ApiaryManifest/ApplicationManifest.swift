import ApiarySupport

/// The application manifest (`app.json` or `app.plist` in a manifests directory): what the
/// application is called, the URL scheme remote calls must use, the environment, where the module
/// manifests are, and application-wide configuration. The ``Kernel`` reads it.
///
/// | key | type | default |
/// |---|---|---|
/// | `schemaVersion` | integer, must be `1` | required |
/// | `name` | non-empty string | required |
/// | `scheme` | URL scheme: a letter, then letters, digits, `+`, `-`, `.` | required |
/// | `environment` | `dev`, `test`, `stage` or `prod` | `dev` |
/// | `modules` | array of files or directories, relative to this file | `["modules"]` |
/// | `config` | object, free-form | `{}` |
/// | `fallback` | `{"target": string, "action": string}` | none |
/// | `limits` | `{"fileSize": bytes, "depth": levels, "values": count}` for module files | 4 MiB, 512 levels, 1,000,000 values |
/// | `allowOutsidePaths` | boolean: `modules` may name files outside this directory | `false` |
///
/// A directory in `modules` contributes every `*.json` and `*.plist` file directly in it, sorted
/// by name. A path that leaves the manifests directory (`../x`, `/abs`, or a symbolic link to
/// outside) is a problem unless `allowOutsidePaths` is `true`. Any other key is reported as a
/// problem.
///
/// ```json
/// {
///   "schemaVersion": 1,
///   "name": "Notebook",
///   "scheme": "notebook",
///   "environment": "dev",
///   "modules": ["modules"],
///   "config": { "dataDirectory": ".apiary-data" },
///   "fallback": { "target": "diagnostics", "action": "notFound" }
/// }
/// ```
public struct ApplicationManifest: Sendable, Hashable {
  /// The only schema version this build reads.
  package static let supportedSchemaVersion = 1

  package var schemaVersion: Int
  /// A human-readable application name.
  package var name: String
  /// The URL scheme of remote calls (`notebook://notes/create?...`). Other schemes are refused.
  package var scheme: String
  /// `environment`; modules read it from their context.
  package var environment: Environment
  /// `modules`: files or directories, relative to the application manifest, holding module manifests.
  package var modulePaths: [String]
  /// Application-wide configuration, readable by every module.
  package var config: [String: JSONValue]
  /// Where the mediator sends calls that find no target or action, after the target's own
  /// not-found handler.
  package var fallback: ActionReference?
  /// `limits`: what reading each module file may cost.
  package var limits: ManifestLimits
  /// `allowOutsidePaths`: whether `modules` may name files outside the manifests directory.
  package var allowsOutsidePaths: Bool
  /// The file this manifest was read from, when it was read from one.
  package var source: SourceLocation?

  /// An application manifest as code, for tests and embedders; the `apiary` host reads it
  /// from `app.json`.
  public init(
    name: String, scheme: String, environment: Environment = .dev,
    config: [String: JSONValue] = [:]
  ) {
    self.init(
      schemaVersion: Self.supportedSchemaVersion, name: name, scheme: scheme,
      environment: environment, config: config)
  }

  package init(
    schemaVersion: Int,
    name: String,
    scheme: String,
    environment: Environment = .dev,
    modulePaths: [String] = ["modules"],
    config: [String: JSONValue] = [:],
    fallback: ActionReference? = nil,
    limits: ManifestLimits = .default,
    allowsOutsidePaths: Bool = false,
    source: SourceLocation? = nil
  ) {
    self.schemaVersion = schemaVersion
    self.name = name
    self.scheme = scheme
    self.environment = environment
    self.modulePaths = modulePaths
    self.config = config
    self.fallback = fallback
    self.limits = limits
    self.allowsOutsidePaths = allowsOutsidePaths
    self.source = source
  }
}

/// A target and action named in a manifest, such as the application's not-found fallback.
package struct ActionReference: Sendable, Hashable {
  public var target: String
  public var action: String

  public init(target: String, action: String) {
    self.target = target
    self.action = action
  }
}

/// Where an application runs. Modules read it from their context to pick behaviour.
public enum Environment: String, Sendable, Hashable, CaseIterable {
  case dev, test, stage, prod
}
