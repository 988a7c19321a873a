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
/// `spin` (hang in start without ever suspending), `gate` and `gatePhase` (block the hook's
/// thread, or with `event` the event handler's, at a ``HookGate`` the test opens), `intercepts` (install a global interceptor that
/// records every call).
final class ScriptedModule: Module {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  init() {}

  private func step(_ phase: String, _ context: ModuleContext) throws {
    if context.config["gatePhase"]?.stringValue == phase,
      let gate = context.config["gate"]?.stringValue
    {
      HookGate.named(gate)?.pass()
    }
    Journal.append(context.config["journal"]?.stringValue ?? "", "\(context.name).\(phase)")
    if context.config["fail"]?.stringValue == phase {
      throw Failure(description: "\(context.name) refused to \(phase)")
    }
  }

  func setUp(_ context: ModuleContext) throws {
    try step("setUp", context)
    if context.config["intercepts"]?.boolValue == true {
      let journal = context.config["journal"]?.stringValue ?? ""
      context.mediator.intercept(
        .global,
        .after { call, _ in Journal.append(journal, "\(context.name) saw \(call.action)") })
    }
    if let event = context.config["handles"]?.stringValue {
      context.events.subscribe(event) { event in
        if context.config["gatePhase"]?.stringValue == "event",
          let gate = context.config["gate"]?.stringValue
        {
          HookGate.named(gate)?.pass()
        }
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

  func ready(_ context: ModuleContext) async throws {
    try step("ready", context)
  }

  func tearDown(_ context: ModuleContext) async throws {
    try step("tearDown", context)
  }
}

/// A point inside a module hook that the test controls. The hook calls ``pass()``, which
/// announces its arrival and blocks the hook's thread until the test calls ``open()``; the test
/// awaits ``arrival()`` to know the hook is there. Gates are found by name from module config.
final class HookGate: Sendable {
  private struct State {
    var arrived = false
    var arrivalWaiters: [CheckedContinuation<Void, Never>] = []
  }

  private static let all = Locked<[String: HookGate]>([:])
  private let state = Locked(State())
  private let opened = DispatchSemaphore(value: 0)
  let name = UUID().uuidString

  init() { Self.all.withLock { $0[name] = self } }

  static func named(_ name: String) -> HookGate? {
    all.withLock { $0[name] }
  }

  /// Called by module code: announces arrival, then waits (blocking) until the gate opens.
  func pass() {
    let waiters = state.withLock { state in
      state.arrived = true
      defer { state.arrivalWaiters = [] }
      return state.arrivalWaiters
    }
    for waiter in waiters { waiter.resume() }
    opened.wait()
    opened.signal()  // let any other hook waiting here through as well
  }

  /// Returns once a hook has reached the gate.
  func arrival() async {
    await withCheckedContinuation { continuation in
      let arrived = state.withLock { state in
        if !state.arrived { state.arrivalWaiters.append(continuation) }
        return state.arrived
      }
      if arrived { continuation.resume() }
    }
  }

  /// Lets every hook waiting at the gate, and every later one, through.
  func open() { opened.signal() }

  /// Config for a module that stops at this gate in `phase`.
  func config(_ phase: String) -> [String: JSONValue] {
    ["gate": .string(name), "gatePhase": .string(phase)]
  }
}

/// Builders for kernels made of scripted modules.
enum Fixture {
  static let catalog: TypeCatalog = {
    let catalog = TypeCatalog()
    catalog.register(ScriptedModule.self, as: "Test.Scripted")
    catalog.register(CalcTarget.self, as: "Test.Calc")
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
