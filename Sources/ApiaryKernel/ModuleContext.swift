import ApiaryContainer
import ApiaryLifecycle
import ApiaryManifest
import ApiaryMediator

/// What a module sees of the application: its name and configuration, the environment, and
/// the three shared facilities — the ``Container`` for services, the ``Mediator`` for calls to
/// other modules, and the ``EventBus`` for custom events.
///
/// Everything a module registers through its context is owned by that module and removed when
/// the module is unloaded.
///
/// ```swift
/// func setUp(_ context: ModuleContext) throws {
///   let directory = try context.config.string("directory", default: ".data")
///   try context.container.register(Store.self, scope: .singleton) { _ in Store(directory) }
///   context.events.subscribe("note.saved") { event in .handled }
/// }
/// ```
public final class ModuleContext: Sendable {
  /// The module's manifest, as loaded.
  package let manifest: ModuleManifest
  /// The application manifest.
  package let application: ApplicationManifest
  /// The module's own `config` object, with typed accessors.
  public let config: Config
  /// The application's `config` object, with typed accessors.
  public let applicationConfig: Config
  /// Services and injection; bindings made here are owned by this module.
  public let container: Container
  /// Target-action calls to other modules.
  public let mediator: Mediator
  /// Custom events; subscriptions made here are owned by this module.
  public let events: EventBus

  /// The module's name from its manifest.
  public var name: String { manifest.name }
  /// The environment the application runs in.
  public var environment: Environment { application.environment }

  init(
    manifest: ModuleManifest, application: ApplicationManifest, container: Container,
    mediator: Mediator, events: EventBus
  ) {
    self.manifest = manifest
    self.application = application
    self.config = Config(owner: manifest.name, values: manifest.config)
    self.applicationConfig = Config(owner: "application", values: application.config)
    self.container = container
    self.mediator = mediator
    self.events = events
  }
}
