import Apiary
import Dispatch

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

/// A kernel booted once, before the first input.
private let application: Kernel = {
  let catalog = TypeCatalog()
  catalog.register(EchoModule.self, as: "Fuzz.EchoModule")
  catalog.register(EchoTarget.self, as: "Fuzz.EchoTarget")
  let kinds: [ParameterManifest.Kind] = [.string, .int, .double, .bool, .array, .object, .any]
  let actions = [
    ActionManifest(
      name: "all", isRemote: true,
      parameters: kinds.map { ParameterManifest(name: $0.rawValue, kind: $0) }),
    ActionManifest(
      name: "required", isRemote: true,
      parameters: [
        ParameterManifest(name: "id", kind: .int, isRequired: true),
        ParameterManifest(name: "tag", kind: .string, defaultValue: "x"),
      ]),
    ActionManifest(name: "local"),
  ]
  let module = ModuleManifest(
    name: "echo", type: "Fuzz.EchoModule",
    targets: [TargetManifest(name: "echo", type: "Fuzz.EchoTarget", actions: actions)])
  do {
    let kernel = try Kernel(
      application: ApplicationManifest(name: "Fuzz", scheme: "fuzz"), modules: [module],
      catalog: catalog)
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
