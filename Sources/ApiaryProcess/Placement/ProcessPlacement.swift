import ApiaryKernel
import ApiaryManifest
import ApiaryMediator
import ApiarySupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns a process-placed module's manifest into the one the host plans: the same name, order,
/// dependencies, timeout and targets, implemented by ``ProcessModule`` and ``ProcessTarget``,
/// with no services (they live in the child) and the command that starts the child.
///
/// ```swift
/// let proxy = ProcessPlacement.proxy(
///   for: manifest, command: ProcessPlacement.command(for: manifest, apiary: "/usr/bin/apiary"))
/// ```
package enum ProcessPlacement {
  /// The manifest the host plans for `module`, started with `command`.
  package static func proxy(for module: ModuleManifest, command: [String]) -> ModuleManifest {
    var proxy = module
    proxy.type = _typeName(ProcessModule.self, qualified: true)
    proxy.services = []
    proxy.targets = module.targets.map { target in
      var target = target
      target.type = _typeName(ProcessTarget.self, qualified: true)
      return target
    }
    proxy.command = command
    ProcessTarget.declare(module.targets)
    return proxy
  }

  /// Registers the proxy types in `catalog` and stops SIGPIPE from ending the host when a child
  /// closes its end of a pipe (writes fail with EPIPE instead, and the call gets a typed error).
  package static func prepare(_ catalog: TypeCatalog) {
    catalog.register(ProcessModule.self)
    catalog.register(ProcessTarget.self)
    _ = signal(SIGPIPE, SIG_IGN)
  }

  /// The command starting `module`'s child: its own `command`, with the program found on `PATH`
  /// and elements starting with `./` or `../` made relative to the manifest file's directory;
  /// else `apiary child NAME FILE DIR`, which loads the module's plugin through the load gate.
  package static func command(
    for module: ModuleManifest, apiary: String, manifests directory: String
  ) -> [String] {
    let file = absolute(module.source?.file ?? "")
    guard let command = module.command, let program = command.first else {
      return [apiary, "child", module.name, file, absolute(directory)]
    }
    let base = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    let resolved = command.map { part in
      part.hasPrefix("./") || part.hasPrefix("../") ? base + "/" + part : part
    }
    return [program.contains("/") ? resolved[0] : onPath(program) ?? program]
      + resolved.dropFirst()
  }

  /// `path` made absolute against the working directory.
  static func absolute(_ path: String) -> String {
    guard !path.hasPrefix("/") else { return path }
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return path }
    let directory = String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
    return directory + "/" + path
  }

  /// The first executable named `program` in `PATH`.
  static func onPath(_ program: String) -> String? {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(program)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  /// The path of the running executable (`apiary`), for starting `apiary child`.
  package static var executable: String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return "apiary" }
    return String(decoding: buffer.prefix(count).map(UInt8.init), as: UTF8.self)
  }

  /// Problems of placement that `validate` reports: a module that depends on a process-placed
  /// module that binds services (services cannot cross the process boundary, so its dependents
  /// could not resolve them).
  package static func problems(_ modules: [ModuleManifest]) -> [ManifestProblem] {
    let placed = Dictionary(
      modules.filter { $0.isEnabled && $0.placement == .process && !$0.services.isEmpty }
        .map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    guard !placed.isEmpty else { return [] }
    var problems: [ManifestProblem] = []
    for module in modules where module.isEnabled {
      for (position, dependency) in module.dependencies.enumerated() {
        guard let provider = placed[dependency] else { continue }
        let services = provider.services.map(\.protocolName).joined(separator: ", ")
        let index = ManifestValidator.index(position, module.dependencyIndices)
        problems.append(
          ManifestProblem(
            .invalidValue, at: ManifestValidator.location(module, ".dependencies[\(index)]"),
            "'\(module.name)' depends on '\(dependency)', which runs in a child process "
              + "(\"placement\": \"process\"); its services (\(services)) cannot be resolved "
              + "outside it: place '\(dependency)' in the host, or call its targets instead"))
      }
    }
    return problems
  }
}
