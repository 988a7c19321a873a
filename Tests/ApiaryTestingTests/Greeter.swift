import Apiary

/// The service the greeter module binds and the kit's tests fake.
protocol Greeting: Sendable {
  var word: String { get }
}

final class Hello: Greeting {
  let word = "hello"
}

final class Ahoy: Greeting {
  let word = "ahoy"
}

/// A small plugin module: binds `Greeting`, exposes the `greeter` target, and handles `greet`
/// events by posting `greeted`.
final class GreeterModule: Module {
  init() {}

  func setUp(_ context: ModuleContext) throws {
    try context.container.register((any Greeting).self, scope: .singleton) { _ in Hello() }
    context.events.subscribe("greet") { event in
      let greeting = try context.container.resolve((any Greeting).self)
      await context.events.post("greeted", payload: ["word": greeting.word])
      return .handled
    }
  }
}

final class GreeterTarget: Target {
  let greeting: any Greeting

  init(context: ModuleContext) throws {
    greeting = try context.container.resolve((any Greeting).self)
  }

  static let actions: ActionTable<GreeterTarget> = [
    "greet": .sync { target, params in "\(target.greeting.word), \(try params.string("name"))" }
  ]
}

/// Depends on the greeter, so it starts after it and is torn down before it.
final class AudienceModule: Module {
  init() {}
}

/// The manifest of both modules, as a plugin author would write it inline.
let greeterManifest = """
  { "schemaVersion": 1, "modules": [
    { "name": "audience", "type": "ApiaryTestingTests.AudienceModule",
      "dependencies": ["greeter"] },
    { "name": "greeter", "type": "ApiaryTestingTests.GreeterModule",
      "targets": [ { "name": "greeter", "type": "ApiaryTestingTests.GreeterTarget",
        "actions": [ { "name": "greet", "remote": true,
          "parameters": [ { "name": "name", "type": "string", "default": "world" } ] } ] } ] } ] }
  """
