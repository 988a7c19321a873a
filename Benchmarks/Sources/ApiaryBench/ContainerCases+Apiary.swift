import Apiary

extension ContainerCases {
  /// Apiary's container, or why it cannot run the cases.
  static func apiary(bindings: Int) -> (cases: ContainerCases?, note: String?) {
    let container = Apiary.Container()
    do {
      try container.register(Logger.self, scope: .singleton) { _ in Logger() }
      try container.register(Logger.self, name: bindingName, scope: .singleton) { _ in Logger() }
      try container.register(Database.self) { _ in Database() }
      try container.register(Network.self) { _ in Network() }
      try container.register(Consumer.self) { resolver in
        Consumer(database: try resolver.resolve(), network: try resolver.resolve())
      }
      try container.register(Greeter.self) { (_, name: String) in Greeter(name: name) }
      for filler in fillerTypes(bindings - fixtureBindings) {
        func register<T: Filler>(_ type: T.Type) throws {
          try container.register(type) { _ in T() }
        }
        try register(filler)
      }
    } catch {
      return (nil, "registration failed: \(error)")
    }
    let problems = check(
      singleton: (try? container.resolve(Logger.self)) != nil,
      transient: (try? container.resolve(Consumer.self)) != nil,
      named: (try? container.resolve(Logger.self, name: bindingName)) != nil,
      argument: (try? container.resolve(Greeter.self, arguments: greeterArgument)) != nil,
      failedIsNil: (try? container.resolve(Missing.self)) == nil)
    let cases = ContainerCases(
      singleton: { n in for _ in 0..<n { blackHole(try? container.resolve(Logger.self)) } },
      transient: { n in for _ in 0..<n { blackHole(try? container.resolve(Consumer.self)) } },
      named: { n in
        for _ in 0..<n { blackHole(try? container.resolve(Logger.self, name: bindingName)) }
      },
      argument: { n in
        for _ in 0..<n {
          blackHole(try? container.resolve(Greeter.self, arguments: greeterArgument))
        }
      },
      failed: { n in for _ in 0..<n { blackHole(try? container.resolve(Missing.self)) } },
      concurrentSingleton: { n in
        for _ in 0..<n { blackHole(try? container.resolve(Logger.self)) }
      },
      problems: problems)
    return (cases, problems.isEmpty ? nil : problems.joined(separator: "; "))
  }
}
