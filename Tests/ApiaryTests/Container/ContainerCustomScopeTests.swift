import Foundation
import Testing

@testable import Apiary
@testable import ApiaryContainer

/// Keeps one instance per key until the session ends.
final class DISessionScope: CustomScope {
  private let lock = NSLock()
  // Guarded by `lock`.
  nonisolated(unsafe) private var instances: [ServiceKey: Any] = [:]

  func instance<T>(for key: ServiceKey, make: () throws -> T) throws -> T {
    if let kept = lock.withLock({ instances[key] }) as? T { return kept }
    let made = try make()
    lock.withLock { instances[key] = made }
    return made
  }

  func endSession() { lock.withLock { instances.removeAll() } }
}

@Suite struct ContainerCustomScopeTests {
  @Test func customScopeDecidesTheLifetime() throws {
    let c = Container()
    let session = DISessionScope()
    let counter = DICounter()
    try c.register(DIThing.self, in: session) { _ in DIThing(id: counter.next()) }
    #expect(try c.resolve(DIThing.self) === c.resolve(DIThing.self))
    session.endSession()
    #expect(try c.resolve(DIThing.self).id == 2)
    #expect(c.bindings[0].kind.description == "factory in custom scope DISessionScope")
  }
}
