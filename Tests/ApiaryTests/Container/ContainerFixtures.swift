import Synchronization

@testable import Apiary
@testable import ApiaryContainer

// Test services shared by the container tests. Names start with `DI` so they do not collide
// with other areas' fixtures in the same test target.

protocol DILogger: AnyObject, Sendable { var lines: [String] { get } }
protocol DIStore: AnyObject, Sendable { var name: String { get } }
protocol DIUnrelated: AnyObject {}

final class DIMemoryLogger: DILogger, @unchecked Sendable {
  // Only touched from one test at a time.
  var lines: [String] = []
}

final class DIMemoryStore: DIStore, DILogger {
  let name: String
  var lines: [String] { [] }
  init(name: String = "memory") { self.name = name }
}

final class DINotesService: Sendable {
  let store: any DIStore
  let log: any DILogger
  init(store: any DIStore, log: any DILogger) {
    self.store = store
    self.log = log
  }
}

final class DIGreeting: Sendable {
  let text: String
  init(who: String, times: Int) { text = Array(repeating: "hi \(who)", count: times).joined() }
}

/// Counts instances created, for scope tests.
final class DICounter: Sendable {
  let made = Atomic<Int>(0)
  func next() -> Int { made.wrappingAdd(1, ordering: .relaxed).newValue }
}

final class DIThing: Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}

/// Holds two graph-scoped dependencies, to check they are one instance.
final class DIPair: Sendable {
  let first: DIThing
  let second: DIThing
  init(first: DIThing, second: DIThing) {
    self.first = first
    self.second = second
  }
}

// Cycles: A → B → C → A through transient bindings; Parent ⇄ Child singletons.
final class DICycleA { init(_ b: DICycleB) {} }
final class DICycleB { init(_ c: DICycleC) {} }
final class DICycleC { init(_ a: DICycleA) {} }

final class DIParent: @unchecked Sendable {
  // Set once in initCompleted, before anyone else sees the instance.
  var child: DIChild?
}
final class DIChild: Sendable {
  let parent: DIParent
  init(parent: DIParent) { self.parent = parent }
}

/// A manifest implementation: constructor injection plus a property and the post hook.
/// `@unchecked Sendable`: `audit` and `didInjectCalls` are written by `inject(into:)` before the
/// container hands the instance out, and read by one test afterwards.
final class DIFileStore: DIStore, Injectable, InjectionAware, @unchecked Sendable {
  let name = "file"
  let log: any DILogger
  @Injected(name: "audit") var audit: any DILogger
  var didInjectCalls = 0

  init(resolver: Resolver) throws {
    log = try resolver.resolve()
  }

  func didInject(_ resolver: Resolver) throws { didInjectCalls += 1 }
}

/// Injectable, but not a DIStore.
final class DIWrongStore: Injectable {
  init(resolver: Resolver) throws {}
}

/// Not Injectable at all.
final class DIPlainClass {}

/// A stateful provider object.
final class DISequenceProvider: ServiceProvider {
  let counter = DICounter()
  func provide(_ resolver: Resolver) throws -> DIThing { DIThing(id: counter.next()) }
}

struct DIFactoryFailure: Error, CustomStringConvertible {
  var description: String { "disk full" }
}

/// A class using property injection only.
class DIController: InjectionAware {
  @Injected var store: any DIStore
  @Injected(name: "audit") var log: any DILogger
  var hookSawStore = false
  func didInject(_ resolver: Resolver) throws { hookSawStore = $store }
}

final class DISubController: DIController {
  @Injected var greeting: DIThing
}

/// A class whose mirror hides its fields, and whose plain fields look like a property
/// wrapper's storage (a struct named `_count`, a class named `_cache`).
final class DIMirroredController: CustomReflectable {
  @Injected var store: any DIStore
  var _count = 0
  var _cache: DIMemoryLogger? = nil
  var customMirror: Mirror { Mirror(self, children: [:]) }
}

class DIBaseService {}
final class DIDerivedService: DIBaseService, Injectable {
  required init(resolver: Resolver) throws {}
}

/// Two classes whose injected properties point at each other. `@unchecked Sendable` so they can
/// be singletons: the cycle test resolves them on one thread only.
final class DIInjectedA: Injectable, @unchecked Sendable {
  @Injected var b: DIInjectedB
  init(resolver: Resolver) throws {}
}
final class DIInjectedB: Injectable, @unchecked Sendable {
  @Injected var a: DIInjectedA
  init(resolver: Resolver) throws {}
}
