/// Services the container cases resolve. Classes, as a real application's services would be.
final class Logger: Sendable {
  init() {}
}

/// First dependency of ``Consumer``.
final class Database: Sendable {
  init() {}
}

/// Second dependency of ``Consumer``.
final class Network: Sendable {
  init() {}
}

/// A transient service with two transient dependencies.
final class Consumer: Sendable {
  let database: Database
  let network: Network

  init(database: Database, network: Network) {
    self.database = database
    self.network = network
  }
}

/// A transient service created with one runtime argument.
final class Greeter: Sendable {
  let name: String

  init(name: String) { self.name = name }
}

/// Never registered: the failed-resolve cases ask for it.
final class Missing: Sendable {
  init() {}
}

/// The name of the named-resolve binding.
let bindingName = "primary"
/// The argument of the resolve-with-argument cases.
let greeterArgument = "bench"
/// Bindings the fixtures above make (Logger, named Logger, Database, Network, Consumer, Greeter).
let fixtureBindings = 6
