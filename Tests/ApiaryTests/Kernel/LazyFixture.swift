import Foundation

@testable import Apiary
@testable import ApiaryKernel

/// A service a lazy module declares in its manifest.
protocol LazyGreeter: AnyObject, Sendable {
  var greeting: String { get }
}

final class LazyGreeterImpl: LazyGreeter, Injectable {
  let greeting = "hello"
  init(resolver: Resolver) throws {}
}

/// A module that, in `start`, calls the target named by its `calls` config and resolves
/// ``LazyGreeter`` when `resolves` is true: a trigger from inside a hook.
final class TriggeringModule: Module {
  init() {}

  func start(_ context: ModuleContext) async throws {
    let journal = context.config["journal"]?.stringValue ?? ""
    if let target = context.config["calls"]?.stringValue {
      let sum = try LazyFixture.add(context.mediator, target: target, 1, 2)
      Journal.append(journal, "\(context.name) got \(sum)")
    }
    if context.config["resolves"]?.boolValue == true {
      let greeter = try context.container.resolve((any LazyGreeter).self)
      Journal.append(journal, "\(context.name) got \(greeter.greeting)")
    }
  }
}

/// Lazy modules made of scripted modules, with a `calc` target or a greeter service.
enum LazyFixture {
  static let catalog: TypeCatalog = {
    let catalog = TypeCatalog()
    catalog.register(ScriptedModule.self, as: "Test.Scripted")
    catalog.register(TriggeringModule.self, as: "Test.Triggering")
    catalog.register(CalcTarget.self, as: "Test.Calc")
    catalog.register((any LazyGreeter).self, as: "Test.Greeter")
    catalog.register(LazyGreeterImpl.self, as: "Test.GreeterImpl")
    return catalog
  }()

  static let calc = TargetManifest(
    name: "calc", type: "Test.Calc",
    actions: [
      ActionManifest(
        name: "add", isRemote: true,
        parameters: [
          ParameterManifest(name: "a", kind: .int, isRequired: true),
          ParameterManifest(name: "b", kind: .int, isRequired: true),
        ])
    ])

  static let greeter = ServiceManifest(
    protocolName: "Test.Greeter", implementation: "Test.GreeterImpl")

  static func module(
    _ name: String, journal: String, activation: ModuleManifest.Activation = .lazy,
    dependencies: [String] = [], isOptional: Bool = false, services: [ServiceManifest] = [],
    targets: [TargetManifest] = [], events: [String] = [], config: [String: JSONValue] = [:]
  ) -> ModuleManifest {
    var manifest = Fixture.module(
      name, journal: journal, dependencies: dependencies, isOptional: isOptional, config: config)
    manifest.services = services
    manifest.targets = targets
    manifest.activation = activation
    manifest.activationEvents = events
    return manifest
  }

  static func kernel(_ modules: [ModuleManifest]) throws -> Kernel {
    try Kernel(application: Fixture.application, modules: modules, catalog: catalog)
  }

  /// A synchronous call of `target`'s `add`, on the calling thread.
  static func add(_ mediator: Mediator, target: String = "calc", _ a: Int, _ b: Int) throws -> Int {
    try mediator.perform(target: target, action: "add", params: ["a": a, "b": b], as: Int.self)
  }

  /// The hooks of `module` in the journal, without the module name: `["setUp", "start", …]`.
  static func hooks(_ module: String, in journal: String) -> [String] {
    Journal.read(journal).filter { $0.hasPrefix(module + ".") }.map {
      String($0.dropFirst(module.count + 1))
    }
  }
}
