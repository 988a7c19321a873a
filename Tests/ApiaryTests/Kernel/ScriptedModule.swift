import Foundation
import Synchronization

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryLifecycle

/// Records lifecycle calls per test, keyed by the `journal` config value.
enum Journal {
  private static let entries = Locked<[String: [String]]>([:])

  static func new() -> String { UUID().uuidString }

  static func append(_ journal: String, _ entry: String) {
    entries.withLock { $0[journal, default: []].append(entry) }
  }

  static func read(_ journal: String) -> [String] {
    entries.withLock { $0[journal] ?? [] }
  }
}

/// A module whose behaviour comes from its config: `journal` (where to record), `fail`
/// (a phase name to throw in), `hang` (a phase to hang in), `delay` (seconds to sleep in start),
/// `spin` (hang in start without ever suspending).
final class ScriptedModule: Module {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  init() {}

  private func step(_ phase: String, _ context: ModuleContext) throws {
    Journal.append(context.config["journal"]?.stringValue ?? "", "\(context.name).\(phase)")
    if context.config["fail"]?.stringValue == phase {
      throw Failure(description: "\(context.name) refused to \(phase)")
    }
  }

  func setUp(_ context: ModuleContext) throws {
    try step("setUp", context)
    if let event = context.config["handles"]?.stringValue {
      context.events.subscribe(event) { event in
        if context.config["throwsOnEvent"]?.boolValue == true {
          throw Failure(description: "\(context.name) choked on \(event.name)")
        }
        return context.config["ignores"]?.boolValue == true ? .ignored : .handled
      }
    }
  }

  func start(_ context: ModuleContext) async throws {
    if let delay = context.config["delay"]?.doubleValue {
      try await Task.sleep(for: .seconds(delay))
    }
    if context.config["hang"]?.stringValue == "start" {
      try await Task.sleep(for: .seconds(3600))
    }
    if context.config["spin"]?.boolValue == true {
      let until = ContinuousClock.now + .seconds(2)
      while ContinuousClock.now < until {}
    }
    try step("start", context)
  }

  func ready(_ context: ModuleContext) async {
    try? step("ready", context)
  }

  func tearDown(_ context: ModuleContext) async throws {
    try step("tearDown", context)
  }
}

/// Builders for kernels made of scripted modules.
enum Fixture {
  static let catalog: TypeCatalog = {
    let catalog = TypeCatalog()
    catalog.register(ScriptedModule.self, as: "Test.Scripted")
    return catalog
  }()

  static let application = ApplicationManifest(name: "Test", scheme: "test", environment: .test)

  static func module(
    _ name: String, journal: String, level: ModuleManifest.Level = .normal, priority: Int = 0,
    dependencies: [String] = [], isAsync: Bool = false, isOptional: Bool = false,
    timeout: Double = 5, config: [String: JSONValue] = [:]
  ) -> ModuleManifest {
    var values = config
    values["journal"] = .string(journal)
    return ModuleManifest(
      name: name, type: "Test.Scripted", level: level, priority: priority,
      dependencies: dependencies, isAsync: isAsync, startTimeout: timeout, isOptional: isOptional,
      config: values)
  }

  static func kernel(_ modules: [ModuleManifest]) throws -> Kernel {
    try Kernel(application: application, modules: modules, catalog: catalog)
  }
}
