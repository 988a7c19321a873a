import ApiaryPluginGate
import Foundation

/// Feeds one fuzzer input to the plugin load gate the way a host meets a plugin library anyone
/// can hand it: written as the library file of a candidate a manifest names (with a name,
/// version and `sha256` claim, so the claims are checked too), checked by `LoadGate.check`
/// against fixed host facts. The same bytes are also the contract library `libFuzzKit.so` next
/// to it, which a `DT_NEEDED` entry finds through `$ORIGIN` (so a library can need itself). The
/// input is also parsed as an `apiary_plugin` section on its own, so descriptor texts need no
/// ELF around them. Nothing is ever loaded (`dlopen`).
public func fuzzPluginGate(_ data: UnsafePointer<UInt8>, _ size: Int) {
  let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
  for path in [library, directory + "/libFuzzKit.so"] {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
      fatalError("cannot write \(path)")
    }
  }
  let (_, problems) = LoadGate.check([candidate], host: host)
  for problem in problems { _ = problem.description }
  let (_, descriptorProblems) = PluginDescriptor.parse(bytes, file: library)
  for problem in descriptorProblems { _ = problem.description }
}

/// The facts the gate's tests build their fixtures against (Tests/ApiaryPluginGateTests), so
/// a seed built like a fixture passes the descriptor checks and reaches the later ones.
private let host = HostFacts(
  apiaryVersion: SemanticVersion(1, 4, 0), abiHash: "3f2a9c", compiler: "Clang 17.0.6 (test)",
  triple: "x86_64-unknown-linux-gnu", abiModules: ["Apiary"],
  loadedLibraries: ["libc.so.6", "libApiary.so", "libswiftCore.so"])

/// The directory of this process's library files, in memory where possible.
private let directory: String = {
  let memory = "/dev/shm"
  let base =
    FileManager.default.isWritableFile(atPath: memory)
    ? memory : FileManager.default.temporaryDirectory.path
  let directory = base + "/apiary-fuzz-gate-\(getpid())"
  do {
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
  } catch {
    fatalError("cannot create \(directory): \(error)")
  }
  return directory
}()

/// The candidate's library file.
private let library = directory + "/libFuzz.so"

private let candidate = PluginCandidate(
  name: "fuzz", version: "1.0.0", library: library,
  sha256: "0000000000000000000000000000000000000000000000000000000000000000",
  origin: "Manifests/modules/fuzz.json: modules[0].library")
