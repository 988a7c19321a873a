import ApiaryLifecycle
import ApiaryManifest

/// Why the kernel refused or failed an operation. Every message names the module, and for hook
/// failures the phase and the cause.
///
/// ```swift
/// do { try await kernel.boot() }
/// catch let error as KernelError where error.code == .hookFailed { print(error) }
/// // module 'store' failed in start: did not finish within 5.0 s (manifest 'timeout')
/// ```
///
/// Compare ``code`` with the members of ``Code`` to tell failures apart (see <doc:Errors>).
public struct KernelError: Error, Sendable, CustomStringConvertible {
  /// Which failure a ``KernelError`` reports. Later versions may add codes: compare with `==`,
  /// or switch with a `default:` case.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, as written after the dot: `hookFailed`.
    public let description: String
  }

  /// Which failure this is.
  public let code: Code
  /// What the message is made from: the values of the failure named by ``code``.
  package let details: KernelErrorDetails

  private init(_ code: Code, _ details: KernelErrorDetails) {
    self.code = code
    self.details = details
  }

  public var description: String { details.description }
}

// One factory per code, with its name, so a call site reads `throw KernelError.unknownModule(…)`.
extension KernelError {
  package static func invalidManifests(_ problems: [ManifestProblem]) -> Self {
    Self(.invalidManifests, .invalidManifests(problems))
  }

  package static func plan(_ error: PlanError) -> Self {
    Self(.plan, .plan(error))
  }

  package static func unresolvedType(module: String, type: String, foundButNotModule: Bool) -> Self
  {
    Self(
      .unresolvedType,
      .unresolvedType(module: module, type: type, foundButNotModule: foundButNotModule))
  }

  package static func hookFailed(module: String, phase: LifecyclePhase, cause: any Error) -> Self {
    Self(.hookFailed, .hookFailed(module: module, phase: phase, cause: cause))
  }

  package static func wrongState(operation: String, state: String) -> Self {
    Self(.wrongState, .wrongState(operation: operation, state: state))
  }

  package static func unknownModule(_ name: String) -> Self {
    Self(.unknownModule, .unknownModule(name))
  }

  package static func duplicateModule(_ name: String) -> Self {
    Self(.duplicateModule, .duplicateModule(name))
  }

  package static func dependencyNotRunning(module: String, dependency: String) -> Self {
    Self(.dependencyNotRunning, .dependencyNotRunning(module: module, dependency: dependency))
  }

  package static func moduleInUse(module: String, dependents: [String]) -> Self {
    Self(.moduleInUse, .moduleInUse(module: module, dependents: dependents))
  }

  package static func interrupted(operation: String) -> Self {
    Self(.interrupted, .interrupted(operation: operation))
  }
}

// The codes, each documented where users read it.
extension KernelError.Code {
  /// Manifests did not validate; each problem names its file and key path.
  public static let invalidManifests = Self(description: "invalidManifests")

  /// The modules cannot be ordered.
  public static let plan = Self(description: "plan")

  /// A module's `type` names no Swift type, or one that is not a ``Module``.
  public static let unresolvedType = Self(description: "unresolvedType")

  /// A required module's hook threw or timed out.
  public static let hookFailed = Self(description: "hookFailed")

  /// The operation needs a state the kernel is not in (for example `add` before `boot`).
  public static let wrongState = Self(description: "wrongState")

  /// No module has that name.
  public static let unknownModule = Self(description: "unknownModule")

  /// A module of that name is already loaded.
  public static let duplicateModule = Self(description: "duplicateModule")

  /// A module cannot be added because a dependency is not running.
  public static let dependencyNotRunning = Self(description: "dependencyNotRunning")

  /// A module cannot be removed while running modules depend on it.
  public static let moduleInUse = Self(description: "moduleInUse")

  /// A shutdown was requested while the operation (`boot`, `add`) was in progress; what it had
  /// started is torn down.
  public static let interrupted = Self(description: "interrupted")
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
  /// No module has that name.
  case unknownModule(String)
  /// A module of that name is already loaded.
  case duplicateModule(String)
  /// A module cannot be added because a dependency is not running.
  case dependencyNotRunning(module: String, dependency: String)
  /// A module cannot be removed while running modules depend on it.
  case moduleInUse(module: String, dependents: [String])
  /// A shutdown was requested while the operation (`boot`, `add`) was in progress; what it had
  /// started is torn down.
  case interrupted(operation: String)

  package var description: String {
    switch self {
    case .invalidManifests(let problems):
      "\(problems.count) manifest problem\(problems.count == 1 ? "" : "s"):\n"
        + problems.map { "  \($0)" }.joined(separator: "\n")
    case .plan(let error): "cannot plan boot: \(error)"
    case .unresolvedType(let module, let type, let foundButNotModule):
      foundButNotModule
        ? "module '\(module)': type '\(type)' does not conform to Apiary.Module"
        : "module '\(module)': type '\(type)' not found (is its target linked into the host?)"
    case .hookFailed(let module, let phase, let cause):
      "module '\(module)' failed in \(phase): \(cause)"
    case .wrongState(let operation, let state):
      "cannot \(operation) while the kernel is \(state)"
    case .unknownModule(let name): "no module named '\(name)'"
    case .duplicateModule(let name): "a module named '\(name)' is already loaded"
    case .dependencyNotRunning(let module, let dependency):
      "module '\(module)' depends on '\(dependency)', which is not running"
    case .moduleInUse(let module, let dependents):
      "module '\(module)' is needed by running modules: \(dependents.joined(separator: ", "))"
    case .interrupted(let operation):
      "could not \(operation): shutdown was requested meanwhile"
    }
  }
}
