import ApiaryLifecycle
import ApiaryManifest
import ApiarySupport

/// Why the kernel refused or failed an operation. Every message names the module, and for hook
/// failures the phase and the cause.
///
/// ```swift
/// do { try await kernel.boot() }
/// catch let error as KernelError where error.code == .hookFailed { print(error) }
/// // module 'store' failed in start: did not finish within 5.0 s (manifest 'timeout')
/// ```
///
/// Compare ``code`` with the codes in ``ErrorCode`` to tell failures apart (see <doc:Errors>).
public struct KernelError: Error, Sendable, CustomStringConvertible {
  /// Which failure a ``KernelError`` reports (see ``ErrorCode``).
  public typealias Code = ErrorCode<KernelError>

  /// Which failure this is.
  public let code: Code
  /// What the message is made from: the values of the failure named by ``code``.
  package let details: KernelErrorDetails

  /// What a hook threw, for a hook that failed; nil for any other error.
  package var hookError: (any Error)? {
    if case .hookFailed(_, _, let cause) = details { return cause }
    return nil
  }

  public var description: String { details.description }

  /// The message a line an element (see ``KernelErrorDetails/lines``).
  package var lines: [String] { details.lines }
}

// One factory per code, with its name, so a call site reads `throw KernelError.unknownModule(…)`.
extension KernelError {
  package static func invalidManifests(_ problems: [ManifestProblem]) -> Self {
    Self(code: .invalidManifests, details: .invalidManifests(problems))
  }

  package static func plan(_ error: PlanError) -> Self {
    Self(code: .plan, details: .plan(error))
  }

  package static func unresolvedType(module: String, type: String, foundButNotModule: Bool) -> Self
  {
    Self(
      code: .unresolvedType,
      details: .unresolvedType(module: module, type: type, foundButNotModule: foundButNotModule))
  }

  package static func hookFailed(module: String, phase: LifecyclePhase, cause: any Error) -> Self {
    Self(code: .hookFailed, details: .hookFailed(module: module, phase: phase, cause: cause))
  }

  package static func wrongState(operation: String, state: String) -> Self {
    Self(code: .wrongState, details: .wrongState(operation: operation, state: state))
  }

  package static func notFailed(module: String, state: ModuleState) -> Self {
    Self(code: .wrongState, details: .notFailed(module: module, state: state))
  }

  package static func unknownModule(_ name: String) -> Self {
    Self(code: .unknownModule, details: .unknownModule(name))
  }

  package static func duplicateModule(_ name: String) -> Self {
    Self(code: .duplicateModule, details: .duplicateModule(name))
  }

  package static func dependencyNotRunning(module: String, dependency: String) -> Self {
    Self(
      code: .dependencyNotRunning,
      details: .dependencyNotRunning(module: module, dependency: dependency))
  }

  package static func moduleInUse(module: String, dependents: [String], dormant: [String] = [])
    -> Self
  {
    Self(
      code: .moduleInUse,
      details: .moduleInUse(module: module, dependents: dependents, dormant: dormant))
  }

  package static func interrupted(operation: String) -> Self {
    Self(code: .interrupted, details: .interrupted(operation: operation))
  }
}

// The codes, each documented where users read it.
extension ErrorCode where Domain == KernelError {
  /// Manifests did not validate; each problem names its file and key path.
  public static var invalidManifests: Self { Self("invalidManifests") }

  /// The modules cannot be ordered.
  public static var plan: Self { Self("plan") }

  /// A module's `type` names no Swift type, or one that is not a ``Module``.
  public static var unresolvedType: Self { Self("unresolvedType") }

  /// A required module's hook threw or timed out.
  public static var hookFailed: Self { Self("hookFailed") }

  /// The operation needs a state the kernel, or the module it names, is not in (for example
  /// `add` before `boot`, or `restart` of a module that has not failed).
  public static var wrongState: Self { Self("wrongState") }

  /// No module has that name.
  public static var unknownModule: Self { Self("unknownModule") }

  /// A module of that name is already loaded.
  package static var duplicateModule: Self { Self("duplicateModule") }

  /// A module cannot be added because a dependency is not running.
  package static var dependencyNotRunning: Self { Self("dependencyNotRunning") }

  /// A module cannot be removed while running or dormant modules depend on it.
  public static var moduleInUse: Self { Self("moduleInUse") }

  /// A shutdown was requested while the operation (`boot`, `add`) was in progress; what it had
  /// started is torn down.
  public static var interrupted: Self { Self("interrupted") }
}

/// The values behind each ``KernelError`` code, one case per code.
package enum KernelErrorDetails: Sendable, CustomStringConvertible {
  /// Manifests did not validate; each problem names its file and key path.
  case invalidManifests([ManifestProblem])
  /// The modules cannot be ordered.
  case plan(PlanError)
  /// A module's `type` names no Swift type, or one that is not a ``Module``.
  case unresolvedType(module: String, type: String, foundButNotModule: Bool)
  /// A required module's hook threw or timed out.
  case hookFailed(module: String, phase: LifecyclePhase, cause: any Error)
  /// The operation needs a state the kernel is not in (for example `add` before `boot`).
  case wrongState(operation: String, state: String)
  /// `restart` of a module that has not failed.
  case notFailed(module: String, state: ModuleState)
  /// No module has that name.
  case unknownModule(String)
  /// A module of that name is already loaded.
  case duplicateModule(String)
  /// A module cannot be added because a dependency is not running.
  case dependencyNotRunning(module: String, dependency: String)
  /// A module cannot be removed while running (`dependents`) or dormant modules depend on it.
  case moduleInUse(module: String, dependents: [String], dormant: [String])
  /// A shutdown was requested while the operation (`boot`, `add`) was in progress; what it had
  /// started is torn down.
  case interrupted(operation: String)

  /// The message a line an element: a count, then one problem a line. Text a line quotes from
  /// a manifest may hold newlines of its own, so the host escapes each line, never splits them.
  package var lines: [String] {
    guard case .invalidManifests(let problems) = self else { return [description] }
    return ["\(problems.count) manifest problem\(problems.count == 1 ? "" : "s"):"]
      + problems.map { "  \($0)" }
  }

  package var description: String {
    switch self {
    case .invalidManifests: lines.joined(separator: "\n")
    case .plan(let error): "cannot plan boot: \(error)"
    case .unresolvedType(let module, let type, let foundButNotModule):
      foundButNotModule
        ? "module '\(module)': type '\(type)' does not conform to Apiary.Module"
        : "module '\(module)': type '\(type)' not found (is its target linked into the host?)"
    case .hookFailed(let module, let phase, let cause):
      "module '\(module)' failed in \(phase): \(cause)"
    case .wrongState(let operation, let state):
      "cannot \(operation) while the kernel is \(state)"
    case .notFailed(let module, let state):
      "cannot restart module '\(module)': it is \(state), and only a module that failed is "
        + "restarted; \(Self.instead(of: state))"
    case .unknownModule(let name): "no module named '\(name)'"
    case .duplicateModule(let name): "a module named '\(name)' is already loaded"
    case .dependencyNotRunning(let module, let dependency):
      "module '\(module)' depends on '\(dependency)', which is not running"
    case .moduleInUse(let module, let dependents, let dormant):
      "module '\(module)' is needed by "
        + (dependents.isEmpty ? "" : "running modules: \(dependents.joined(separator: ", "))")
        + (dependents.isEmpty || dormant.isEmpty ? "" : "; ")
        + (dormant.isEmpty ? "" : "dormant modules: \(dormant.joined(separator: ", "))")
    case .interrupted(let operation):
      "could not \(operation): shutdown was requested meanwhile"
    }
  }

  /// What to do instead of restarting a module in `state`, which has not failed.
  private static func instead(of state: ModuleState) -> String {
    switch state {
    case .running: "to start it anew, remove it and add it again"
    case .dormant: "it starts on its first trigger"
    case .stopped: "it has stopped: add it again"
    case .skipped: "once the modules it depends on run, remove it and add it again"
    default: "wait until it has started or failed"
    }
  }
}
