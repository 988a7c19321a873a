import ApiaryManifest
import ApiarySupport

/// Why the mediator could not add targets, make a call, or accept a URL. Each description says
/// what was wrong, where, what was expected and what was found.
///
/// ```swift
/// do { try mediator.perform(target: "notes", action: "create", params: [:]) }
/// catch let error as MediatorError { print(error) }
/// // notes/create: missing required parameter 'title' (expected string)
/// ```
///
/// Compare ``code`` with the codes in ``ErrorCode`` to tell failures apart (see <doc:Errors>).
public struct MediatorError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Which failure a ``MediatorError`` reports (see ``ErrorCode``).
  public typealias Code = ErrorCode<MediatorError>

  /// Which failure this is.
  public let code: Code
  /// What the message is made from: the values of the failure named by ``code``.
  package let details: MediatorErrorDetails

  public var description: String { details.description }

  /// A type name for messages; only used on error paths.
  static func typeName(of value: Any) -> String {
    String(describing: type(of: value))
  }
}

// One factory per code, with its name, so a call site reads `throw MediatorError.vetoed(…)`.
extension MediatorError {
  package static func typeNotFound(module: String, target: String, type: String) -> Self {
    Self(code: .typeNotFound, details: .typeNotFound(module: module, target: target, type: type))
  }

  package static func notATarget(module: String, target: String, type: String) -> Self {
    Self(code: .notATarget, details: .notATarget(module: module, target: target, type: type))
  }

  package static func actionNotImplemented(
    module: String, target: String, action: String, type: String, implemented: [String]
  ) -> Self {
    Self(
      code: .actionNotImplemented,
      details: .actionNotImplemented(
        module: module, target: target, action: action, type: type, implemented: implemented))
  }

  package static func duplicateTarget(module: String, target: String, existingOwner: String) -> Self
  {
    Self(
      code: .duplicateTarget,
      details: .duplicateTarget(module: module, target: target, existingOwner: existingOwner))
  }

  package static func duplicateAction(module: String, target: String, action: String) -> Self {
    Self(
      code: .duplicateAction,
      details: .duplicateAction(module: module, target: target, action: action))
  }

  package static func duplicateParameter(
    module: String, target: String, action: String, key: String
  ) -> Self {
    Self(
      code: .duplicateParameter,
      details: .duplicateParameter(module: module, target: target, action: action, key: key))
  }

  package static func invalidDefault(
    module: String, target: String, action: String, key: String, expected: String, found: String
  ) -> Self {
    Self(
      code: .invalidDefault,
      details: .invalidDefault(
        module: module, target: target, action: action, key: key, expected: expected, found: found))
  }

  package static func targetNotFound(target: String, action: String) -> Self {
    Self(code: .targetNotFound, details: .targetNotFound(target: target, action: action))
  }

  package static func actionNotFound(target: String, action: String) -> Self {
    Self(code: .actionNotFound, details: .actionNotFound(target: target, action: action))
  }

  package static func missingParameter(
    target: String, action: String, key: String, expected: String
  ) -> Self {
    Self(
      code: .missingParameter,
      details: .missingParameter(target: target, action: action, key: key, expected: expected))
  }

  package static func wrongParameterType(
    target: String, action: String, key: String, expected: String, found: String
  ) -> Self {
    Self(
      code: .wrongParameterType,
      details: .wrongParameterType(
        target: target, action: action, key: key, expected: expected, found: found))
  }

  package static func invalidParameterValue(
    target: String, action: String, key: String, expected: String, found: String
  ) -> Self {
    Self(
      code: .invalidParameterValue,
      details: .invalidParameterValue(
        target: target, action: action, key: key, expected: expected, found: found))
  }

  package static func unexpectedParameter(target: String, action: String, key: String) -> Self {
    Self(
      code: .unexpectedParameter,
      details: .unexpectedParameter(target: target, action: action, key: key))
  }

  package static func repeatedParameter(target: String, action: String, key: String) -> Self {
    Self(
      code: .repeatedParameter,
      details: .repeatedParameter(target: target, action: action, key: key))
  }

  package static func asyncActionInSyncCall(target: String, action: String) -> Self {
    Self(
      code: .asyncActionInSyncCall, details: .asyncActionInSyncCall(target: target, action: action))
  }

  package static func targetCreationFailed(target: String, owner: String, reason: String) -> Self {
    Self(
      code: .targetCreationFailed,
      details: .targetCreationFailed(target: target, owner: owner, reason: reason))
  }

  package static func vetoed(target: String, action: String, reason: String) -> Self {
    Self(code: .vetoed, details: .vetoed(target: target, action: action, reason: reason))
  }

  package static func timedOut(target: String, action: String, seconds: Double) -> Self {
    Self(code: .timedOut, details: .timedOut(target: target, action: action, seconds: seconds))
  }

  package static func resultTooDeep(limit: Int) -> Self {
    Self(code: .resultTooDeep, details: .resultTooDeep(limit: limit))
  }

  package static func wrongResultType(
    target: String, action: String, expected: String, found: String
  ) -> Self {
    Self(
      code: .wrongResultType,
      details: .wrongResultType(target: target, action: action, expected: expected, found: found))
  }

  package static func malformedURL(url: String, reason: String) -> Self {
    Self(code: .malformedURL, details: .malformedURL(url: url, reason: reason))
  }

  package static func wrongScheme(url: String, expected: String, found: String) -> Self {
    Self(code: .wrongScheme, details: .wrongScheme(url: url, expected: expected, found: found))
  }

  package static func notRemote(target: String, action: String) -> Self {
    Self(code: .notRemote, details: .notRemote(target: target, action: action))
  }
}

// The codes, each documented where users read it.
extension ErrorCode where Domain == MediatorError {
  /// The manifest names a type neither the catalog nor the Swift runtime knows.
  package static var typeNotFound: Self { Self("typeNotFound") }

  /// The manifest names a type that is not a class conforming to ``Target``.
  package static var notATarget: Self { Self("notATarget") }

  /// The manifest declares an action the target type's ``ActionTarget/actions`` table lacks.
  package static var actionNotImplemented: Self { Self("actionNotImplemented") }

  /// Two modules declare a target of the same name.
  package static var duplicateTarget: Self { Self("duplicateTarget") }

  /// A target declares an action twice.
  package static var duplicateAction: Self { Self("duplicateAction") }

  /// An action declares a parameter twice.
  package static var duplicateParameter: Self { Self("duplicateParameter") }

  /// A declared default value does not have the parameter's declared kind.
  package static var invalidDefault: Self { Self("invalidDefault") }

  /// No target of that name, and neither the fallback nor a handler answered.
  public static var targetNotFound: Self { Self("targetNotFound") }

  /// The target has no such action, and neither its not-found handler nor the fallback answered.
  public static var actionNotFound: Self { Self("actionNotFound") }

  /// A required parameter is missing and has no default.
  public static var missingParameter: Self { Self("missingParameter") }

  /// A parameter value does not have its declared kind.
  public static var wrongParameterType: Self { Self("wrongParameterType") }

  /// A URL parameter's text could not be converted to the declared kind.
  public static var invalidParameterValue: Self { Self("invalidParameterValue") }

  /// A URL carried a parameter the action does not declare.
  public static var unexpectedParameter: Self { Self("unexpectedParameter") }

  /// A URL repeated a parameter that is not an array.
  public static var repeatedParameter: Self { Self("repeatedParameter") }

  /// A synchronous `perform` or `open` reached an `async` action.
  public static var asyncActionInSyncCall: Self { Self("asyncActionInSyncCall") }

  /// The target's `init(context:)` threw.
  public static var targetCreationFailed: Self { Self("targetCreationFailed") }

  /// A `before` interceptor refused the call.
  public static var vetoed: Self { Self("vetoed") }

  /// An `await`ed call ran past the action's declared `timeout`; the action may still be
  /// running, and its result is dropped.
  public static var timedOut: Self { Self("timedOut") }

  /// An action's result is nested deeper than the renderer's limit (512 levels) and was not
  /// rendered.
  package static var resultTooDeep: Self { Self("resultTooDeep") }

  /// A typed call got a result of another type.
  public static var wrongResultType: Self { Self("wrongResultType") }

  /// A URL is not `scheme://target/action?key=value`.
  public static var malformedURL: Self { Self("malformedURL") }

  /// A URL's scheme is not the application's.
  public static var wrongScheme: Self { Self("wrongScheme") }

  /// The action exists but is local-only; declare `"remote": true` to allow URL calls.
  public static var notRemote: Self { Self("notRemote") }
}

/// The values behind each ``MediatorError`` code, one case per code.
package enum MediatorErrorDetails: Sendable, Hashable, CustomStringConvertible {
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

  package var description: String {
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

  private static func list(_ names: [String]) -> String {
    names.isEmpty ? "none" : names.joined(separator: ", ")
  }

  /// Hostile input can be long; messages show at most 120 characters of it.
  private static func clip(_ text: String) -> String {
    text.count <= 120 ? text : text.prefix(120) + "…"
  }
}
