import Apiary

/// Generated modules' types, found by name (`ApiaryBench.QuietModule`) through ``TypeCatalog``.

/// A module with no hooks: measures the kernel's own cost per module.
final class QuietModule: Module {
  init() {}
}

/// Registers a named singleton in `setUp` and resolves it in `start`.
final class ServiceModule: Module {
  init() {}

  func setUp(_ context: ModuleContext) throws {
    try context.container.register(Logger.self, name: context.name, scope: .singleton) { _ in
      Logger()
    }
  }

  func start(_ context: ModuleContext) async throws {
    blackHole(try context.container.resolve(Logger.self, name: context.name))
  }
}

/// Handles the benchmark's custom event.
final class ListeningModule: Module {
  static let event = "bench.tick"

  init() {}

  func setUp(_ context: ModuleContext) throws {
    context.events.subscribe(Self.event) { _ in .handled }
  }
}

/// A service manifests bind by name, created by the container on first resolve.
final class ManifestService: Injectable {
  init(resolver: Resolver) throws {}
}

/// The in-process twin of the generated plugins' `LoadedModule` (``PluginFactory/source``):
/// binds a singleton under the module's name in `setUp`.
final class TwinModule: Module {
  init() {}

  func setUp(_ context: ModuleContext) throws {
    try context.container.register(
      (any CustomStringConvertible & Sendable).self, name: context.name, scope: .singleton
    ) { _ in TwinService() }
  }
}

/// The twin of `LoadedService`.
final class TwinService: CustomStringConvertible, Sendable {
  init() {}
  var description: String { "twin" }
}

/// The twin of `LoadedTarget`: `add`.
final class TwinTarget: Target {
  init(context: ModuleContext) throws {}

  static let actions: ActionTable<TwinTarget> = [
    "add": .sync { _, params in try params.int("a") + params.int("b") }
  ]
}
