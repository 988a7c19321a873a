import Synchronization

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryMediator

/// Unique ids for target instances, so tests can tell instances apart.
private let instanceCounter = Atomic<Int>(0)

/// A target with sync and async actions of every parameter kind.
final class CalcTarget: Target {
  let id: Int

  init(context: ModuleContext) throws {
    id = instanceCounter.add(1, ordering: .relaxed).newValue
  }

  static let actions: ActionTable<CalcTarget> = [
    "add": .sync { _, params in try params.int("a") + params.int("b") },
    "id": .sync { target, _ in target.id },
    "echo": .sync { _, params in params.values["value"] },
    "scale": .sync { _, params in try params.double("x") * params.double("factor") },
    "greet": .sync { _, params in
      try "\(params.string("greeting")), \(params.string("name"))\(params.bool("loud") ? "!" : "")"
    },
    "count": .sync { _, params in try params.value("items", as: [any Sendable].self).count },
    "keys": .sync { _, params in
      try params.value("object", as: [String: any Sendable].self).keys.sorted()
    },
    "apply": .sync { _, params in
      try params.value("transform", as: (@Sendable (Int) -> Int).self)(params.int("a"))
    },
    "fail": .sync { _, _ in throw CalcFailure.requested },
    "slow": .async { target, params in
      await Task.yield()
      return try params.int("a") + target.id * 0
    },
  ]

  func notFound(_ call: ActionCall) throws -> NotFoundResult {
    if call.action == "whereFrom" { return .handled(call.origin) }
    return call.action.hasPrefix("legacy") ? .handled("legacy:\(call.action)") : .unhandled
  }
}

enum CalcFailure: Error, Equatable { case requested }

/// A target whose creation always fails.
final class BrokenTarget: Target {
  struct Failure: Error, CustomStringConvertible {
    var description: String { "the database is closed" }
  }

  init(context: ModuleContext) throws { throw Failure() }

  static let actions: ActionTable<BrokenTarget> = ["run": .sync { _, _ in nil }]
}

/// The application-wide fallback: returns what it received.
final class FallbackTarget: Target {
  init(context: ModuleContext) throws {}

  static let actions: ActionTable<FallbackTarget> = [
    "notFound": .sync { _, params in
      var origin = "local"
      if case .remote(let url) = params.origin { origin = url }
      return try "fallback \(params.string("target"))/\(params.string("action")) from \(origin)"
    }
  ]
}

/// Not a target: used to test the `notATarget` refusal.
final class NotATarget {}

enum Fixtures {
  static let scheme = "app"

  static let calcActions: [ActionManifest] = [
    ActionManifest(
      name: "add", isRemote: true,
      parameters: [
        ParameterManifest(name: "a", kind: .int, isRequired: true),
        ParameterManifest(name: "b", kind: .int, defaultValue: 10),
      ], returns: .int),
    ActionManifest(name: "id", returns: .int),
    ActionManifest(
      name: "echo", isRemote: true, parameters: [ParameterManifest(name: "value", kind: .any)]),
    ActionManifest(
      name: "scale", isRemote: true,
      parameters: [
        ParameterManifest(name: "x", kind: .double, isRequired: true),
        ParameterManifest(name: "factor", kind: .double, defaultValue: 2),
      ], returns: .double),
    ActionManifest(
      name: "greet", isRemote: true,
      parameters: [
        ParameterManifest(name: "name", kind: .string, isRequired: true),
        ParameterManifest(name: "greeting", kind: .string, defaultValue: "Hello"),
        ParameterManifest(name: "loud", kind: .bool, defaultValue: false),
      ], returns: .string),
    ActionManifest(
      name: "count", isRemote: true,
      parameters: [ParameterManifest(name: "items", kind: .array, isRequired: true)],
      returns: .int),
    ActionManifest(
      name: "keys", isRemote: true,
      parameters: [ParameterManifest(name: "object", kind: .object, isRequired: true)],
      returns: .array),
    ActionManifest(
      name: "apply",
      parameters: [ParameterManifest(name: "a", kind: .int, isRequired: true)], returns: .int),
    ActionManifest(name: "fail"),
    ActionManifest(
      name: "slow", isRemote: true,
      parameters: [ParameterManifest(name: "a", kind: .int, isRequired: true)], returns: .int),
  ]

  static let calc = TargetManifest(
    name: "calc", type: "ApiaryTests.CalcTarget", actions: calcActions)

  static let fallbackTarget = TargetManifest(
    name: "diagnostics", type: "ApiaryTests.FallbackTarget",
    actions: [
      ActionManifest(
        name: "notFound",
        parameters: [
          ParameterManifest(name: "target", kind: .string, isRequired: true),
          ParameterManifest(name: "action", kind: .string, isRequired: true),
          ParameterManifest(name: "params", kind: .object, isRequired: true),
        ])
    ])

  static func context(_ mediator: Mediator, module: String = "calc") -> ModuleContext {
    ModuleContext(
      manifest: ModuleManifest(name: module, type: "ApiaryTests.CalcModule"),
      application: ApplicationManifest(name: "Test", scheme: scheme),
      container: Container(), mediator: mediator, events: EventBus())
  }

  /// A mediator with the `calc` target, and the `diagnostics` fallback when `withFallback`.
  static func mediator(withFallback: Bool = false, remoteFallback: Bool = false) throws
    -> Mediator
  {
    var fallbackTarget = fallbackTarget
    fallbackTarget.actions[0].isRemote = remoteFallback
    let mediator = Mediator(
      scheme: scheme, catalog: TypeCatalog(),
      fallback: withFallback ? ActionReference(target: "diagnostics", action: "notFound") : nil)
    try mediator.addTargets([calc], owner: "calc", context: context(mediator))
    if withFallback {
      try mediator.addTargets(
        [fallbackTarget], owner: "diagnostics", context: context(mediator, module: "diagnostics"))
    }
    return mediator
  }
}

/// Runs `body` and returns the `MediatorError` it threw, or nil when it threw nothing.
func mediatorError(_ body: () throws -> Any?) -> MediatorError? {
  do {
    _ = try body()
    return nil
  } catch let error as MediatorError {
    return error
  } catch {
    return nil
  }
}

/// The async form of ``mediatorError(_:)``.
func asyncMediatorError(_ body: () async throws -> Any?) async -> MediatorError? {
  do {
    _ = try await body()
    return nil
  } catch let error as MediatorError {
    return error
  } catch {
    return nil
  }
}

/// Runs `body` in a synchronous closure, so async tests reach the synchronous overloads.
func synchronously<T>(_ body: () throws -> T) rethrows -> T { try body() }
