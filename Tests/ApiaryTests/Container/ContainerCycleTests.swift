import Testing

@testable import Apiary
@testable import ApiaryContainer

@Suite struct ContainerCycleTests {
  @Test func transientCycleIsReportedWithThePath() throws {
    let c = Container()
    try c.register(DICycleA.self) { r in DICycleA(try r.resolve()) }
    try c.register(DICycleB.self) { r in DICycleB(try r.resolve()) }
    try c.register(DICycleC.self) { r in DICycleC(try r.resolve()) }
    let error = #expect(throws: ContainerError.self) { try c.resolve(DICycleB.self) }
    #expect(
      error?.description
        == "dependency cycle: ApiaryTests.DICycleB → ApiaryTests.DICycleC → ApiaryTests.DICycleA "
        + "→ ApiaryTests.DICycleB; break it with a Lazy or Provider, or make one of them a "
        + "singleton and set the back reference in initCompleted")
    // The failed resolve left no state behind: a fixed binding resolves.
    try c.register(DICycleC.self, override: true) { _ in throw DIFactoryFailure() }
    #expect(throws: ContainerError.self) { try c.resolve(DICycleB.self) }
  }

  @Test func selfDependencyIsACycle() throws {
    let c = Container()
    try c.register(DIThing.self, scope: .singleton) { r in try r.resolve(DIThing.self) }
    guard
      case .cycle(let path)? = #expect(
        throws: ContainerError.self, performing: { try c.resolve(DIThing.self) })?.details
    else { return }
    #expect(path.count == 2)
  }

  @Test func singletonCycleCompletesAfterConstruction() throws {
    let c = Container()
    try c.register(DIParent.self, scope: .singleton) { _ in DIParent() }
      .initCompleted { r, parent in parent.child = try r.resolve(DIChild.self) }
    try c.register(DIChild.self, scope: .singleton) { r in DIChild(parent: try r.resolve()) }
    let parent = try c.resolve(DIParent.self)
    #expect(parent.child?.parent === parent)
    #expect(try c.resolve(DIChild.self) === parent.child)
  }

  @Test func graphCycleCompletesAfterConstruction() throws {
    let c = Container()
    try c.register(DIParent.self, scope: .graph) { _ in DIParent() }
      .initCompleted { r, parent in parent.child = try r.resolve(DIChild.self) }
    try c.register(DIChild.self) { r in DIChild(parent: try r.resolve()) }
    let parent = try c.resolve(DIParent.self)
    #expect(parent.child?.parent === parent)
    #expect(try c.resolve(DIParent.self) !== parent)
  }

  /// `@Injected` properties that point at each other are a typed cycle, even between
  /// singletons: no object is handed out before its properties are filled, which is what lets
  /// `Injected.wrappedValue` trap only on its owner's own early read.
  @Test func injectedPropertiesInACycleAreReportedNotHandedOutHalfFilled() throws {
    let c = Container()
    try c.register(DIInjectedA.self, scope: .singleton) { r in try r.make(DIInjectedA.self) }
    try c.register(DIInjectedB.self, scope: .singleton) { r in try r.make(DIInjectedB.self) }
    guard
      case .cycle(let path)? = #expect(
        throws: ContainerError.self, performing: { try c.resolve(DIInjectedA.self) })?.details
    else { return }
    #expect(path.first == path.last)
    #expect(path.count == 3)
  }

  @Test func transientCycleThroughInitCompletedIsReported() throws {
    let c = Container()
    try c.register(DIParent.self) { _ in DIParent() }
      .initCompleted { r, parent in parent.child = try r.resolve(DIChild.self) }
    try c.register(DIChild.self) { r in DIChild(parent: try r.resolve()) }
    #expect(throws: ContainerError.self) { try c.resolve(DIParent.self) }
  }
}
