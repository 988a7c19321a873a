import Apiary
import ApiaryTooling

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `apiary generate [DIR] [--output FILE]`: typed mediator clients from declared targets.
enum GenerateCommand: HostCommand {
  static let name = "generate"
  static let summary = "Write typed mediator clients for every declared target"
  static let usage = """
    USAGE: apiary generate [DIR] [--output FILE] [--import MODULE]

    Generates Swift source with one typed client per target declared in the manifests in DIR
    (default \(Host.defaultManifests)) — `try await mediator.notes.create(title: "Hi")` instead of
    strings — and prints it, or writes it to FILE. It reads the manifests only: the plugins
    need not be built. The output is meant to be committed; CI checks
    that it is up to date.

    OPTIONS:
      --manifests DIR   the same as DIR
      --output FILE     write to FILE instead of standard output
      --import MODULE   an extra import for the generated file
    """
  static let options: Set<String> = ["--output", "--import"]

  static func run(_ arguments: Arguments) async -> Int32 {
    // From the manifests alone: a client needs the declared target, not its plugin, so a
    // plugin not built yet (or refused) still gets its client.
    let set = ManifestLoader(catalog: TypeCatalog()).loadUnvalidated(
      directory: arguments.manifests)
    let problems =
      set.problems
      + ManifestLoader.validate(application: set.application, modules: set.modules, checkTypes: nil)
    guard problems.isEmpty else {
      StandardError.print(
        lines: Host.errorLines(ApplicationLoader.Failure(manifestProblems: problems)))
      return ExitStatus.failure
    }
    let targets = set.modules.filter(\.isEnabled).flatMap(\.targets)
    let collisions = WrapperGenerator.nameCollisions(in: targets)
    guard collisions.isEmpty else {
      for problem in collisions { StandardError.print("\(problem)") }
      return ExitStatus.failure
    }
    let imports = ["Apiary"] + (arguments.options["--import"].map { [$0] } ?? [])
    let source = WrapperGenerator.swiftSource(for: targets, imports: imports)
    guard let output = arguments.options["--output"] else {
      Output.raw(source)
      return ExitStatus.success
    }
    do {
      // A new file is written whole and renamed over FILE only when FILE is a regular file or
      // absent; a link, a device or a pipe is written through, as `>` would (a rename would
      // replace the link, or /dev/null, with a regular file).
      var status = stat()
      let isRegular = lstat(output, &status) != 0 || status.st_mode & S_IFMT == S_IFREG
      try source.write(toFile: output, atomically: isRegular, encoding: .utf8)
      StandardError.print("wrote \(output)")
      return ExitStatus.success
    } catch {
      StandardError.print("error: cannot write \(output): \(FileFailure.reason(error))")
      return ExitStatus.failure
    }
  }
}
