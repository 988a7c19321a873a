extension ContainerCases {
  /// The hand-written dictionary-and-lock baseline.
  static func dictionary(bindings: Int) -> ContainerCases {
    let container = DictionaryContainer()
    container.register(Logger.self, singleton: true) { _ in Logger() }
    container.register(Logger.self, name: bindingName, singleton: true) { _ in Logger() }
    container.register(Database.self) { _ in Database() }
    container.register(Network.self) { _ in Network() }
    container.register(Consumer.self) { container in
      Consumer(
        database: container.resolve(Database.self) ?? Database(),
        network: container.resolve(Network.self) ?? Network())
    }
    container.register(Greeter.self) { (_, name: String) in Greeter(name: name) }
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
    return ContainerCases(
      singleton: { n in for _ in 0..<n { blackHole(container.resolve(Logger.self)) } },
      transient: { n in for _ in 0..<n { blackHole(container.resolve(Consumer.self)) } },
      named: { n in for _ in 0..<n { blackHole(container.resolve(Logger.self, name: bindingName)) }
      },
      argument: { n in
        for _ in 0..<n { blackHole(container.resolve(Greeter.self, argument: greeterArgument)) }
      },
      failed: { n in for _ in 0..<n { blackHole(container.resolve(Missing.self)) } },
      concurrentSingleton: { n in for _ in 0..<n { blackHole(container.resolve(Logger.self)) } },
      problems: problems)
  }
}
