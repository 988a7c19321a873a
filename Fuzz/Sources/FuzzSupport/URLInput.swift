import Apiary
import Dispatch
import Foundation

/// Opens `url` on a booted application whose `echo` target has remote actions taking every
/// parameter kind. Any thrown error must be a `MediatorError`.
///
/// This is a fuzzing harness, not product code: its `fatalError`s are how it reports a finding
/// to libFuzzer, which saves the input.
public func fuzzOpen(_ url: String) {
  do {
    _ = try application.mediator.open(url)
  } catch is MediatorError {
  } catch {
    fatalError("untyped error from open(\(url.debugDescription)): \(error)")
  }
}

/// A kernel booted once, before the first input, from manifests written as a user writes them.
private let application: Kernel = {
  let catalog = TypeCatalog()
  catalog.register(EchoModule.self, as: "Fuzz.EchoModule")
  catalog.register(EchoTarget.self, as: "Fuzz.EchoTarget")
  let kinds = ["string", "int", "double", "bool", "array", "object", "any"]
  let all = kinds.map { #"{"name": "\#($0)", "type": "\#($0)"}"# }.joined(separator: ", ")
  let module = """
    {"schemaVersion": 1, "modules": [{"name": "echo", "type": "Fuzz.EchoModule", "targets": [
      {"name": "echo", "type": "Fuzz.EchoTarget", "actions": [
        {"name": "all", "remote": true, "parameters": [\(all)]},
        {"name": "required", "remote": true, "parameters": [
          {"name": "id", "type": "int", "required": true},
          {"name": "tag", "type": "string", "default": "x"}]},
        {"name": "local"}]}]}]}
    """
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("apiary-fuzz-url-\(getpid())")
  do {
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("modules"), withIntermediateDirectories: true)
    try Data(#"{"schemaVersion": 1, "name": "Fuzz", "scheme": "fuzz"}"#.utf8)
      .write(to: directory.appendingPathComponent("app.json"))
    try Data(module.utf8).write(to: directory.appendingPathComponent("modules/echo.json"))
    let kernel = try Kernel(manifestsAt: directory.path, catalog: catalog)
    let booted = DispatchSemaphore(value: 0)
    Task {
      do { try await kernel.boot() } catch { fatalError("fuzz application did not boot: \(error)") }
      booted.signal()
    }
    booted.wait()
    return kernel
  } catch {
    fatalError("fuzz application did not plan: \(error)")
  }
}()

final class EchoModule: Module {
  init() {}
}

final class EchoTarget: Target {
  init(context: ModuleContext) {}

  static let actions: ActionTable<EchoTarget> = [
    "all": .sync { _, params in params.values },
    "required": .sync { _, params in try params.int("id") },
    "local": .sync { _, _ in "local" },
  ]
}
