import Apiary
import Foundation

/// Feeds one fuzzer input to the manifest loader the way `apiary` meets it: as the module file
/// `name` (the extension picks JSON or property list) in a manifests directory, loaded with
/// `Kernel(manifestsAt:)`: read, decode, validate, link type names and plan. Problems are
/// rendered as the host prints them.
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int, name: String) {
  let file = directory.appendingPathComponent("modules/\(name)")
  guard (try? Data(bytes: data, count: size).write(to: file)) != nil else {
    fatalError("cannot write \(file.path)")
  }
  do {
    _ = try Kernel(manifestsAt: directory.path, catalog: catalog)
  } catch {
    _ = error.description
  }
}

/// A manifests directory for this process, in memory where possible. Its application manifest
/// lowers the `values` limit so inputs that reach it stay fast (the limit is what is tested).
private let directory: URL = {
  let memory = URL(fileURLWithPath: "/dev/shm")
  let base =
    FileManager.default.isWritableFile(atPath: memory.path)
    ? memory : FileManager.default.temporaryDirectory
  let directory = base.appendingPathComponent("apiary-fuzz-\(getpid())")
  let app = #"{"schemaVersion": 1, "name": "Fuzz", "scheme": "fuzz", "limits": {"values": 20000}}"#
  do {
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("modules"), withIntermediateDirectories: true)
    try Data(app.utf8).write(to: directory.appendingPathComponent("app.json"))
  } catch {
    fatalError("cannot create \(directory.path): \(error)")
  }
  return directory
}()

/// One catalog for every input, as a host has.
private let catalog = TypeCatalog()
