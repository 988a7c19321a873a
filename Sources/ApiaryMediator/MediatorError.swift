import ApiaryManifest

/// Why the mediator could not add targets, make a call, or accept a URL. Each description says
/// what was wrong, where, what was expected and what was found.
///
/// ```swift
/// do { try mediator.perform(target: "notes", action: "create", params: [:]) }
/// catch let error as MediatorError { print(error) }
/// // notes/create: missing required parameter 'title' (expected string)
/// ```
public enum MediatorError: Error, Sendable, Hashable, CustomStringConvertible {
  // Adding targets.
  /// The manifest names a type neither the catalog nor the Swift runtime knows.
  case typeNotFound(module: String, target: String, type: String)
  /// The manifest names a type that is not a class conforming to ``Target``.
  case notATarget(module: String, target: String, type: String)
  /// The manifest declares an action the target type's ``ActionTarget/actions`` table lacks.
  case actionNotImplemented(
    module: String, target: String, action: String, type: String, implemented: [String])
  case duplicateTarget(module: String, target: String, existingOwner: String)
  case duplicateAction(module: String, target: String, action: String)
  case duplicateParameter(module: String, target: String, action: String, key: String)
  /// A declared default value does not have the parameter's declared kind.
  case invalidDefault(
    module: String, target: String, action: String, key: String, expected: String, found: String)

  // Calls.
  /// No target of that name, and neither the fallback nor a handler answered.
  case targetNotFound(target: String, action: String)
  /// The target has no such action, and neither its not-found handler nor the fallback answered.
  case actionNotFound(target: String, action: String)
  case missingParameter(target: String, action: String, key: String, expected: String)
  case wrongParameterType(
    target: String, action: String, key: String, expected: String, found: String)
  /// A URL parameter's text could not be converted to the declared kind.
  case invalidParameterValue(
    target: String, action: String, key: String, expected: String, found: String)
  /// A URL carried a parameter the action does not declare.
  case unexpectedParameter(target: String, action: String, key: String)
  /// A URL repeated a parameter that is not an array.
  case repeatedParameter(target: String, action: String, key: String)
  /// A synchronous `perform` or `open` reached an `async` action.
  case asyncActionInSyncCall(target: String, action: String)
  /// The target's `init(context:)` threw.
  case targetCreationFailed(target: String, owner: String, reason: String)
  /// A `before` interceptor refused the call.
  case vetoed(target: String, action: String, reason: String)
  /// An `await`ed call ran past the action's declared `timeout`; the action may still be
  /// running, and its result is dropped.
  case timedOut(target: String, action: String, seconds: Double)
  /// An action's result is nested deeper than the renderer's limit (512 levels) and was not
  /// rendered.
  case resultTooDeep(limit: Int)
  /// A typed call got a result of another type.
  case wrongResultType(target: String, action: String, expected: String, found: String)

  // URLs.
  case malformedURL(url: String, reason: String)
  case wrongScheme(url: String, expected: String, found: String)
  /// The action exists but is local-only; declare `"remote": true` to allow URL calls.
  case notRemote(target: String, action: String)

  public var description: String {
    switch self {
    case .typeNotFound(let module, let target, let type):
      "module '\(module)', target '\(target)': type '\(type)' not found; expected a class "
        + "conforming to Target, written ModuleName.TypeName, linked into the host"
    case .notATarget(let module, let target, let type):
      "module '\(module)', target '\(target)': type '\(type)' is not a class conforming to Target"
    case .actionNotImplemented(let module, let target, let action, let type, let implemented):
      "module '\(module)', target '\(target)': declared action '\(action)' is not in "
        + "\(type).actions (implemented: \(Self.list(implemented)))"
    case .duplicateTarget(let module, let target, let existingOwner):
      "module '\(module)': target '\(target)' is already declared by module '\(existingOwner)'"
    case .duplicateAction(let module, let target, let action):
      "module '\(module)', target '\(target)': action '\(action)' is declared twice"
    case .duplicateParameter(let module, let target, let action, let key):
      "module '\(module)', target '\(target)', action '\(action)': parameter '\(key)' is "
        + "declared twice"
    case .invalidDefault(let module, let target, let action, let key, let expected, let found):
      "module '\(module)', target '\(target)', action '\(action)': default of parameter "
        + "'\(key)' must be \(expected), found \(found)"
    case .targetNotFound(let target, let action):
      "\(target)/\(action): no target '\(target)' (is its module loaded?) and no fallback "
        + "handled the call"
    case .actionNotFound(let target, let action):
      "\(target)/\(action): target '\(target)' has no action '\(action)' and no not-found "
        + "handler or fallback handled the call"
    case .missingParameter(let target, let action, let key, let expected):
      "\(target)/\(action): missing required parameter '\(key)' (expected \(expected))"
    case .wrongParameterType(let target, let action, let key, let expected, let found):
      "\(target)/\(action): parameter '\(key)' expected \(expected), found \(found)"
    case .invalidParameterValue(let target, let action, let key, let expected, let found):
      "\(target)/\(action): parameter '\(key)' expected \(expected), found "
        + "'\(Self.clip(found))'"
    case .unexpectedParameter(let target, let action, let key):
      "\(target)/\(action): unexpected parameter '\(Self.clip(key))'; the action does not "
        + "declare it"
    case .repeatedParameter(let target, let action, let key):
      "\(target)/\(action): parameter '\(key)' given more than once; only array parameters "
        + "may repeat"
    case .asyncActionInSyncCall(let target, let action):
      "\(target)/\(action): the action is async; call it with 'try await'"
    case .targetCreationFailed(let target, let owner, let reason):
      "target '\(target)' of module '\(owner)' could not be created: \(reason)"
    case .vetoed(let target, let action, let reason):
      "\(target)/\(action): refused by an interceptor: \(reason)"
    case .timedOut(let target, let action, let seconds):
      "\(target)/\(action): did not finish within \(seconds) s (the action's 'timeout' in its "
        + "manifest; default \(ActionManifest.defaultTimeout) s)"
    case .resultTooDeep(let limit):
      "the result is nested deeper than \(limit) levels and cannot be rendered"
    case .wrongResultType(let target, let action, let expected, let found):
      "\(target)/\(action): expected a result of type \(expected), found \(found)"
    case .malformedURL(let url, let reason):
      "URL '\(Self.clip(url))' is malformed: \(reason); expected scheme://target/action?key=value"
    case .wrongScheme(let url, let expected, let found):
      "URL '\(Self.clip(url))' refused: scheme '\(Self.clip(found))' is not the application's "
        + "'\(expected)'"
    case .notRemote(let target, let action):
      "\(target)/\(action): refused from a URL: the action is local-only (declare "
        + "\"remote\": true in its manifest to allow URL calls)"
    }
  }

  /// A type name for messages; only used on error paths.
  static func typeName(of value: Any) -> String {
    String(describing: type(of: value))
  }

  private static func list(_ names: [String]) -> String {
    names.isEmpty ? "none" : names.joined(separator: ", ")
  }

  /// Hostile input can be long; messages show at most 120 characters of it.
  private static func clip(_ text: String) -> String {
    text.count <= 120 ? text : text.prefix(120) + "…"
  }
}
