import ApiaryContainer
import ApiaryKernel
import ApiaryLifecycle
import ApiaryManifest
import ApiaryMediator
import ApiarySupport

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A small application booted from inline manifests, for plugin authors' tests: it records
/// lifecycle steps, mediator calls and chosen events, can fake services, and tells what a module
/// still has registered, so a test can check that unloading withdrew everything.
///
/// ```swift
/// @Test func greeterGreetsAndWithdrawsEverything() async throws {
///   let app = try TestApplication(
///     manifest: """
///       { "schemaVersion": 1, "modules": [
///         { "name": "greeter", "type": "GreeterPlugin.GreeterModule",
///           "targets": [ { "name": "greeter", "type": "GreeterPlugin.GreeterTarget",
///             "actions": [ { "name": "greet", "parameters": [
///               { "name": "name", "type": "string", "default": "world" } ] } ] } ] } ] }
///       """,
///     fakes: [Fake((any Greeting).self) { _ in Ahoy() }])
///   app.recordEvents("greeted")
///   try await app.boot()
///   let greeting = try await app.mediator.perform(target: "greeter", action: "greet")
///   #expect(greeting as? String == "ahoy, world")
///   #expect(app.recordedCalls.map(\.action) == ["greet"])
///   await app.events.post("greet")
///   #expect(app.recordedEvents.map(\.name) == ["greeted"])
///   await app.shutdown()
///   #expect(app.modules(in: .tearDown) == ["greeter"])
///   #expect(app.registrations(of: "greeter").isEmpty)
/// }
/// ```
///
/// (`Tests/ApiaryTestingTests/TestApplicationTests.swift` runs this example.)
///
/// The kit asserts nothing itself: it returns plain values to check with Swift Testing or
/// XCTest. It belongs in the `Apiary` library product, next to the runtime, so a plugin package's
/// tests use the same copy of the runtime as the plugin (see the plugin design, §1).
public final class TestApplication: Sendable {
  /// The kernel running the application; use it for anything the kit does not wrap.
  public let kernel: Kernel
  private let recorder: Recorder

  /// The application's container (fakes included once booted).
  public var container: Container { kernel.container }
  /// The application's mediator; every call through it is recorded.
  public var mediator: Mediator { kernel.mediator }
  /// The application's event bus.
  public var events: EventBus { kernel.events }

  /// The application manifest a test application uses unless told otherwise.
  public static let defaultApplication = ApplicationManifest(
    name: "Test", scheme: "test", environment: .test)

  /// Plans the modules of a module manifest file given as text (JSON or a property list), after
  /// checking it as `apiary validate` would, type names included.
  ///
  /// - Throws: ``ErrorCode/invalidManifests`` with every problem, positioned in `manifest`
  ///   (file `inline manifest`), or a planning error.
  public convenience init(
    manifest: String, application: ApplicationManifest = TestApplication.defaultApplication,
    fakes: [Fake] = [], catalog: TypeCatalog = TypeCatalog()
  ) throws(KernelError) {
    let set = ManifestLoader.decodeModules(Data(manifest.utf8), file: "inline manifest")
    let problems =
      set.problems
      + ManifestLoader.validate(application: application, modules: set.modules, catalog: catalog)
    guard problems.isEmpty else { throw .invalidManifests(problems) }
    try self.init(modules: set.modules, application: application, fakes: fakes, catalog: catalog)
  }

  /// Plans `modules` as given, without manifest checks.
  package init(
    modules: [ModuleManifest],
    application: ApplicationManifest = TestApplication.defaultApplication,
    fakes: [Fake] = [], catalog: TypeCatalog = TypeCatalog()
  ) throws(KernelError) {
    var modules = modules
    if !fakes.isEmpty {
      catalog.register(FakeServicesModule.self, as: FakeServicesModule.typeName)
      modules.append(
        ModuleManifest(
          name: FakeServicesModule.name, type: FakeServicesModule.typeName, priority: Int.min))
    }
    let recorder = Recorder()
    self.recorder = recorder
    kernel = try Kernel(
      application: application, modules: modules, catalog: catalog,
      observer: { record in
        guard record.module != FakeServicesModule.name else { return }
        recorder.lifecycle.withLock { $0.append(record) }
      })
    kernel.mediator.intercept(
      .global,
      .after { call, result in
        recorder.calls.withLock { $0.append(RecordedCall(call: call, result: result)) }
      })
    if !fakes.isEmpty {
      do {
        try kernel.container.owned(by: FakeServicesModule.name)
          .register(FakeServices.self, instance: FakeServices(fakes))
      } catch {
        throw .hookFailed(module: FakeServicesModule.name, phase: .setUp, cause: error)
      }
    }
  }

  /// Boots the application; see ``Kernel/boot()``.
  public func boot() async throws(KernelError) {
    try await kernel.boot()
  }

  /// Tears every module down in reverse start order; see ``Kernel/shutdown()``.
  public func shutdown() async {
    await kernel.shutdown()
  }

  /// Unloads one module while the application runs; see `kernel.remove(_:)`.
  public func remove(_ module: String) async throws(KernelError) {
    try await kernel.remove(module)
  }

  // MARK: Recordings

  /// Records every event posted from now on under one of `names`, after the modules' own
  /// handlers (the recorder ignores the event, so dispatch reports list `host` as ignoring it).
  public func recordEvents(_ names: String...) {
    for name in names {
      events.subscribe(name) { [recorder] event in
        recorder.events.withLock { $0.append(event) }
        return .ignored
      }
    }
  }

  /// The recorded events, in the order they were posted.
  public var recordedEvents: [Event] { recorder.events.withLock { $0 } }

  /// Every mediator call that reached an action (vetoed and failed ones included), in the order
  /// they finished. Calls that found no target or action are not recorded.
  public var recordedCalls: [RecordedCall] { recorder.calls.withLock { $0 } }

  /// Every lifecycle step so far, as the kernel reported it.
  public var lifecycle: [LifecycleRecord] { recorder.lifecycle.withLock { $0 } }

  /// The modules whose `phase` hook succeeded, in the order they finished: after a shutdown,
  /// `modules(in: .tearDown)` is the teardown order.
  public func modules(in phase: LifecyclePhase) -> [String] {
    lifecycle.filter { record in
      guard record.phase == phase, case .succeeded = record.outcome else { return false }
      return true
    }.map(\.module)
  }

  /// What `module` still has registered: container bindings, mediator targets and event
  /// subscriptions, one line each. Empty once the module is unloaded or the application shut
  /// down, unless the kernel failed to withdraw something.
  public func registrations(of module: String) -> [String] {
    let bindings = container.bindings.filter { $0.owner == module }.map { "binding \($0.key)" }
    let targets = mediator.targets().filter { $0.owner == module }.map { "target \($0.name)" }
    let subscriptions = events.subscriptions.filter { $0.owners.contains(module) }
      .map { "subscription \($0.event)" }
    return bindings + targets + subscriptions
  }
}

/// What a ``TestApplication`` has recorded, written from kernel and mediator callbacks.
private final class Recorder: Sendable {
  let lifecycle = Locked<[LifecycleRecord]>([])
  let calls = Locked<[RecordedCall]>([])
  let events = Locked<[Event]>([])
}
