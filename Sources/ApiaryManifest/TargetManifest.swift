import ApiarySupport

/// A mediator target declared by a module: the type that implements it and the actions it
/// accepts, with their parameters.
///
/// Target keys: `name` (a letter, then letters, digits, `_`, `-`; unique in the application),
/// `type` (string), `actions` (array, default `[]`). Action keys: `name` (unique in its target),
/// `remote` (boolean, default `false`), `summary` (string), `returns` (a parameter kind, default
/// `any`), `parameters` (array, default `[]`), `timeout` (seconds, greater than 0 and at most 1000000, default
/// `30`: how long an `await`ed call may run before the caller gets a timeout error). Parameter keys: `name` (unique in its action),
/// `type` (`string`, `int`, `double`, `bool`, `array`, `object` or `any`), `required` (boolean,
/// default `false`), `default` (any JSON value of the parameter's type; not with `required`).
///
/// ```json
/// {
///   "name": "notes",
///   "type": "NotesPlugin.NotesTarget",
///   "actions": [
///     { "name": "create", "remote": true, "summary": "Create a note",
///       "parameters": [
///         { "name": "title", "type": "string", "required": true },
///         { "name": "pinned", "type": "bool", "default": false }
///       ],
///       "returns": "object" }
///   ]
/// }
/// ```
package struct TargetManifest: Sendable, Hashable {
  /// The name callers use: `mediator.perform(target: "notes", ...)`, `notebook://notes/...`.
  public var name: String
  /// The Swift type implementing the target, written `ModuleName.TypeName`.
  public var type: String
  public var actions: [ActionManifest]
  public var source: SourceLocation?

  public init(
    name: String, type: String, actions: [ActionManifest] = [], source: SourceLocation? = nil
  ) {
    self.name = name
    self.type = type
    self.actions = actions
    self.source = source
  }
}

/// An action a target accepts.
package struct ActionManifest: Sendable, Hashable {
  public var name: String
  /// Whether the action may be called from a URL. Actions are local-only unless declared remote.
  public var isRemote: Bool
  public var parameters: [ParameterManifest]
  /// The kind of value the action returns, for generated typed wrappers (`any` when unknown).
  public var returns: ParameterManifest.Kind
  /// One line for `apiary inspect` and generated documentation.
  public var summary: String?
  /// Seconds an `await`ed call (`perform` with `await`, `open`, the host) may run before the
  /// caller gets ``ErrorCode/timedOut``.
  public var timeout: Double
  public var source: SourceLocation?
  /// The index in the manifest's `parameters` of each of ``parameters``, when entries that do
  /// not decode were left out (each reported); nil when none were.
  package var parameterIndices: [Int]?

  /// The `timeout` of an action that declares none.
  public static let defaultTimeout = 30.0

  public init(
    name: String,
    isRemote: Bool = false,
    parameters: [ParameterManifest] = [],
    returns: ParameterManifest.Kind = .any,
    summary: String? = nil,
    timeout: Double = ActionManifest.defaultTimeout,
    source: SourceLocation? = nil
  ) {
    self.name = name
    self.isRemote = isRemote
    self.parameters = parameters
    self.returns = returns
    self.summary = summary
    self.timeout = timeout
    self.source = source
  }
}

/// A declared action parameter.
package struct ParameterManifest: Sendable, Hashable {
  public var name: String
  public var kind: Kind
  public var isRequired: Bool
  /// Used when the caller omits an optional parameter.
  public var defaultValue: JSONValue?

  public init(name: String, kind: Kind, isRequired: Bool = false, defaultValue: JSONValue? = nil) {
    self.name = name
    self.kind = kind
    self.isRequired = isRequired
    self.defaultValue = defaultValue
  }

  /// Parameter and return kinds, as written in manifests.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case string, int, double, bool, array, object, any
  }
}
