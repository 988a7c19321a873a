/// Filler bindings: up to 10,000 distinct types (`Pair<Pair<F3, F7>, Pair<F0, F9>>`, ...), so a
/// container holds as many real type-keyed bindings as a large application.
protocol Filler: Sendable {
  init()
}

final class F0: Filler { init() {} }
final class F1: Filler { init() {} }
final class F2: Filler { init() {} }
final class F3: Filler { init() {} }
final class F4: Filler { init() {} }
final class F5: Filler { init() {} }
final class F6: Filler { init() {} }
final class F7: Filler { init() {} }
final class F8: Filler { init() {} }
final class F9: Filler { init() {} }

/// Combines two filler types into a new one.
final class Pair<A: Filler, B: Filler>: Filler {
  init() {}
}

/// `count` (at most 10,000) distinct filler types.
func fillerTypes(_ count: Int) -> [any Filler.Type] {
  let digits: [any Filler.Type] = [
    F0.self, F1.self, F2.self, F3.self, F4.self, F5.self, F6.self, F7.self, F8.self, F9.self,
  ]
  let hundred = digits.flatMap { first in digits.map { second in pair(first, second) } }
  let tenThousand = hundred.lazy.flatMap { first in
    hundred.lazy.map { second in pair(first, second) }
  }
  return Array(tenThousand.prefix(count))
}

private func pair(_ first: any Filler.Type, _ second: any Filler.Type) -> any Filler.Type {
  func open<A: Filler>(_: A.Type) -> any Filler.Type {
    func inner<B: Filler>(_: B.Type) -> any Filler.Type { Pair<A, B>.self }
    return inner(second)
  }
  return open(first)
}
