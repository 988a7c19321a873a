import Swinject

extension ContainerCases {
  /// Swinject 2.10.0, the Swift peer, with the scopes that match each case.
  static func swinject(bindings: Int) -> ContainerCases {
    let container = Swinject.Container()
    container.register(Logger.self) { _ in Logger() }.inObjectScope(.container)
    container.register(Logger.self, name: bindingName) { _ in Logger() }.inObjectScope(.container)
    container.register(Database.self) { _ in Database() }.inObjectScope(.transient)
    container.register(Network.self) { _ in Network() }.inObjectScope(.transient)
    container.register(Consumer.self) { resolver in
      Consumer(
        database: resolver.resolve(Database.self) ?? Database(),
        network: resolver.resolve(Network.self) ?? Network())
    }.inObjectScope(.transient)
    container.register(Greeter.self) { (_, name: String) in Greeter(name: name) }
      .inObjectScope(.transient)
    for filler in fillerTypes(bindings - fixtureBindings) {
      func register<T: Filler>(_ type: T.Type) { container.register(type) { _ in T() } }
      register(filler)
    }
    let problems = check(
      singleton: container.resolve(Logger.self) != nil,
      transient: container.resolve(Consumer.self) != nil,
      named: container.resolve(Logger.self, name: bindingName) != nil,
      argument: container.resolve(Greeter.self, argument: greeterArgument) != nil,
      failedIsNil: container.resolve(Missing.self) == nil)
    let synchronized = SynchronizedSwinject(resolver: container.synchronize())
    return ContainerCases(
      singleton: { n in for _ in 0..<n { blackHole(container.resolve(Logger.self)) } },
      transient: { n in for _ in 0..<n { blackHole(container.resolve(Consumer.self)) } },
      named: { n in for _ in 0..<n { blackHole(container.resolve(Logger.self, name: bindingName)) }
      },
      argument: { n in
        for _ in 0..<n { blackHole(container.resolve(Greeter.self, argument: greeterArgument)) }
      },
      failed: { n in for _ in 0..<n { blackHole(container.resolve(Missing.self)) } },
      concurrentSingleton: { n in
        for _ in 0..<n { blackHole(synchronized.resolver.resolve(Logger.self)) }
      },
      problems: problems)
  }
}

/// Swinject's thread-safe view of a container.
///
/// `@unchecked Sendable` is sound: `Container.synchronize()` returns a `SynchronizedResolver`
/// whose every `resolve` runs under the container's recursive lock (Swinject's documented way to
/// resolve from several threads), and the benchmark registers nothing after creating it.
private struct SynchronizedSwinject: @unchecked Sendable {
  let resolver: any Resolver
}
