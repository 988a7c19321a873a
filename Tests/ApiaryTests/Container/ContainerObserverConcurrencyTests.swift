import Dispatch
import Testing

@testable import Apiary

/// Change tracking: observers of a key's bindings, called outside every lock, whose errors
/// never break registration. Named to run under CI's thread sanitizer.
@Suite struct ContainerObserverConcurrencyTests {
  @Test func observersFollowProvidersAsModulesComeAndGo() throws {
    let root = Container()
    let events = Locked<[String]>([])
    let token = root.observe((any DIStore).self) { change in
      events.withLock { $0.append("\(change.kind == .added ? "+" : "-")\(change.owner ?? "app")") }
    }
    try root.register((any DIStore).self) { _ in DIMemoryStore() }
    try root.owned(by: "plugin").register((any DIStore).self, override: true) { _ in
      DIMemoryStore(name: "plugin")
    }
    root.removeAll(ownedBy: "plugin")
    try root.register((any DILogger).self) { _ in DIMemoryLogger() }  // another key: not seen
    #expect(events.withLock { $0 } == ["+app", "-app", "+plugin", "-plugin", "+app"])
    #expect(root.removeObserver(token))
    #expect(!root.removeObserver(token))
    root.removeAll(ownedBy: "nobody")
    try root.register((any DIStore).self, override: true) { _ in DIMemoryStore() }
    #expect(events.withLock { $0.count } == 5)
  }

  @Test func observersRunOutsideTheLockAndTheirErrorsAreDropped() throws {
    let root = Container()
    let seen = Locked<[String]>([])
    root.observe((any DIStore).self) { change in
      // Resolving and registering from inside the callback would deadlock under the lock.
      let store = try root.resolve((any DIStore).self)
      try root.register(DIThing.self, name: store.name, instance: DIThing(id: 1))
      seen.withLock { $0.append(store.name) }
      throw DIFactoryFailure()
    }
    try root.owned(by: "a").register((any DIStore).self, rank: 1) { _ in DIMemoryStore(name: "a") }
    try root.owned(by: "b").register((any DIStore).self, rank: 2) { _ in DIMemoryStore(name: "b") }
    #expect(seen.withLock { $0 } == ["a", "b"])
    #expect(try root.resolve(DIThing.self, name: "b").id == 1)
    #expect(try root.resolveAll((any DIStore).self).map(\.name) == ["b", "a"])
  }

  @Test func concurrentRegistrationsAreEachObservedOnce() throws {
    let root = Container()
    let added = Locked(0)
    let removed = Locked(0)
    root.observe((any DIStore).self) { change in
      if change.kind == .added {
        added.withLock { $0 += 1 }
      } else {
        removed.withLock { $0 += 1 }
      }
    }
    let threads = 8
    DispatchQueue.concurrentPerform(iterations: threads) { index in
      _ = try? root.owned(by: "m\(index)").register((any DIStore).self, rank: index) { _ in
        DIMemoryStore(name: "m\(index)")
      }
    }
    #expect(added.withLock { $0 } == threads)
    #expect(try root.resolve((any DIStore).self).name == "m\(threads - 1)")
    DispatchQueue.concurrentPerform(iterations: threads) { index in
      root.removeAll(ownedBy: "m\(index)")
    }
    #expect(removed.withLock { $0 } == threads)
    #expect(!root.isBound((any DIStore).self))
  }
}
