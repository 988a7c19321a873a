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

  @Test func transientCycleThroughInitCompletedIsReported() throws {
    let c = Container()
    try c.register(DIParent.self) { _ in DIParent() }
      .initCompleted { r, parent in parent.child = try r.resolve(DIChild.self) }
    try c.register(DIChild.self) { r in DIChild(parent: try r.resolve()) }
    #expect(throws: ContainerError.self) { try c.resolve(DIParent.self) }
  }
}
