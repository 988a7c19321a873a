import Apiary
import Foundation

/// Feeds one fuzzer input to the manifest loader as the file `name` (the extension picks JSON
/// or property list), then through everything that reads decoded manifests without running
/// module code: cross-validation, the boot check, name collisions and client generation.
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int, name: String) {
  let bytes = Data(bytes: data, count: size)
  let set = ManifestLoader.decodeModules(bytes, file: name, limits: limits)
  _ = set.problems.map(\.description)
  guard !set.modules.isEmpty else { return }
  _ = ManifestLoader.validate(application: nil, modules: set.modules, catalog: catalog)
  _ = BootCheck.problems(set.modules, catalog: catalog)
  let targets = set.modules.flatMap(\.targets)
  _ = WrapperGenerator.nameCollisions(in: targets)
  _ = WrapperGenerator.swiftSource(for: targets)
}

/// Lower than the defaults, so inputs that reach a limit stay fast (the limits are what is
/// tested); the depth stays at its maximum.
private let limits = ManifestLimits(fileSize: 1 << 20, depth: 512, values: 20_000)

/// One catalog for every input, as a host has.
private let catalog = TypeCatalog()
