import ApiaryLifecycle
import ApiaryManifest

/// Why the kernel refused or failed an operation. Every case names the module, and for hook
/// failures the phase and the cause.
public enum KernelError: Error, Sendable, CustomStringConvertible {
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

  public var description: String {
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
    }
  }
}
