import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryLifecycle

@Suite struct BootPlanTests {
  private func names(_ modules: [ModuleManifest]) throws -> [String] {
    try BootPlan(modules: modules).modules.map(\.name)
  }

  private func module(
    _ name: String, level: ModuleManifest.Level = .normal, priority: Int = 0,
    dependencies: [String] = [], enabled: Bool = true
  ) -> ModuleManifest {
    ModuleManifest(
      name: name, type: "T.T", level: level, priority: priority, dependencies: dependencies,
      isEnabled: enabled)
  }

  @Test func levelThenPriorityThenManifestOrder() throws {
    let order = try names([
      module("a"), module("b", priority: 5), module("c", level: .basic),
      module("d", priority: 5), module("e", level: .basic, priority: -1),
    ])
    #expect(order == ["c", "e", "b", "d", "a"])
  }

  @Test func dependenciesComeFirstEvenAgainstLevelAndPriority() throws {
    let order = try names([
      module("core", level: .basic, priority: 100, dependencies: ["config"]),
      module("config", priority: -50),
      module("ui", priority: 1000, dependencies: ["core"]),
    ])
    #expect(order == ["config", "core", "ui"])
  }

  @Test func namesAndOrderKeysFollowTheBootOrder() throws {
    let plan = try BootPlan(modules: [
      module("a", priority: Int.min), module("b", enabled: false),
      module("c", level: .basic, dependencies: ["d"]), module("d", priority: 7),
    ])
    #expect(plan.names == ["d", "c", "a"])
    #expect(plan.names == plan.modules.map(\.name))
    #expect(plan.orderKeys.map(\.0) == plan.modules.map { BootPlan.orderKey($0).0 })
    #expect(plan.orderKeys.map(\.1) == plan.modules.map { BootPlan.orderKey($0).1 })
    #expect(plan.positions == ["d": 0, "c": 1, "a": 2])
  }

  @Test func moduleTableKeepsThePlanSlotsAndReusesForgottenOnes() throws {
    let plan = try BootPlan(modules: [module("a"), module("b"), module("c")])
    var table = ModuleTable(planned: plan.positions)
    #expect(plan.names.map { table[$0] } == [.planned, .planned, .planned])
    #expect(table.slot(for: "b") == 1)
    table["b"] = nil
    #expect(table["b"] == nil)
    #expect(table.slot(for: "added") == 1)  // b's slot, reused
    #expect(table["added"] == .planned)
    #expect(table.slot(for: "another") == 3)
    table["c"] = .running
    #expect(plan.names.map { table[$0] } == [.planned, nil, .running])
    #expect(table[wake: "a"] == nil)
  }

  @Test func moduleTableCountsTheModulesThatAreFailedSkippedOrStopped() throws {
    let plan = try BootPlan(modules: [module("a"), module("b"), module("c")])
    var table = ModuleTable(planned: plan.positions)
    #expect(table.unavailable == 0)
    table["a"] = .failed(phase: .setUp, reason: "no")
    table["b"] = .skipped(reason: "dependency 'a' failed")
    #expect(table.unavailable == 2)
    table["a"] = .stopped  // still unavailable
    table["b"] = nil  // forgotten
    #expect(table.unavailable == 1)
    _ = table.slot(for: "added")  // b's slot, planned
    table["a"] = .running
    table["c"] = .setUp
    #expect(table.unavailable == 0)
  }

  @Test func disabledModulesAreLeftOut() throws {
    #expect(try names([module("a"), module("b", enabled: false)]) == ["a"])
  }

  @Test func cycleIsAnError() {
    #expect(throws: PlanError.cycle(among: ["a", "b"])) {
      try BootPlan(modules: [
        module("a", dependencies: ["b"]), module("b", dependencies: ["a"]), module("c"),
      ])
    }
  }

  @Test func unknownDependencyAndDuplicatesAreErrors() {
    #expect(throws: PlanError.unknownDependency(module: "a", dependency: "x")) {
      try BootPlan(modules: [module("a", dependencies: ["x"])])
    }
    #expect(throws: PlanError.duplicateModule("a")) {
      try BootPlan(modules: [module("a"), module("a")])
    }
  }

  @Test func duplicatesAreFoundBeforeUnknownDependencies() {
    // A dependency on a module not declared yet is resolved after every name is known.
    #expect(throws: PlanError.duplicateModule("b")) {
      try BootPlan(modules: [module("a", dependencies: ["x"]), module("b"), module("b")])
    }
    #expect(throws: PlanError.unknownDependency(module: "b", dependency: "y")) {
      try BootPlan(modules: [
        module("a", dependencies: ["c"]), module("b", dependencies: ["y", "z"]), module("c"),
      ])
    }
  }

  @Test func laterAndRepeatedDependenciesAndDisabledNamesakes() throws {
    let order = try names([
      module("a", priority: 9, dependencies: ["c", "c"]), module("c", enabled: false),
      module("b", priority: 5), module("c", dependencies: ["b"]),
    ])
    #expect(order == ["b", "c", "a"])
  }

  @Test func thePlanFromTheValidatorsIndexIsThePlanWithout() throws {
    var modules = [
      module("ui", priority: 9, dependencies: ["store", "log"]), module("log", level: .basic),
      module("store", priority: 5, dependencies: ["log"]), module("cache", priority: 5),
    ]
    modules[3].activation = .lazy
    modules[3].activationEvents = ["warm"]
    let (problems, index) = ManifestLoader.validateIndexing(
      application: nil, modules: modules, checkTypes: nil)
    #expect(problems.isEmpty)
    let validated = try #require(index)
    let plan = try BootPlan(modules: modules, index: validated)
    let unindexed = try BootPlan(modules: modules)
    #expect(plan.names == ["log", "store", "ui", "cache"])
    #expect(plan.names == unindexed.names)
    #expect(plan.positions == unindexed.positions)
    #expect(plan.orderKeys.map(\.1) == unindexed.orderKeys.map(\.1))
    #expect(plan.dormantModules() == ["cache"])
    // A disabled module numbers the rest differently: the plan looks the names up itself.
    modules.append(module("off", enabled: false))
    let withDisabled = ManifestLoader.validateIndexing(
      application: nil, modules: modules, checkTypes: nil)
    let validatedWithDisabled = try #require(withDisabled.index)
    #expect(try BootPlan(modules: modules, index: validatedWithDisabled).names == plan.names)
  }

  @Test func listsWithProblemsGetNoIndex() {
    let (problems, index) = ManifestLoader.validateIndexing(
      application: nil, modules: [module("a", dependencies: ["b"]), module("a")], checkTypes: nil)
    #expect(!problems.isEmpty)
    #expect(index == nil)
  }

  @Test func largeChainIsOrderedWithoutRecursion() throws {
    let count = 20_000
    let modules = (0..<count).map { index in
      module("m\(index)", priority: index, dependencies: index == 0 ? [] : ["m\(index - 1)"])
    }
    let order = try names(modules.reversed())
    #expect(order.first == "m0")
    #expect(order.last == "m\(count - 1)")
  }

  @Test func tableShowsEveryModule() throws {
    let table = try BootPlan(modules: [module("alpha", dependencies: ["beta"]), module("beta")])
      .table()
    #expect(table.count == 3)
    #expect(table[1].contains("1  beta"))
    #expect(table[2].contains("2  alpha"))
    #expect(table[1].hasSuffix("-") && table[2].hasSuffix("beta"))
  }

  /// Every cell starts under its heading, whatever the flags: `sync optional` overflowed the
  /// start column when no module was lazy, and pushed the dependencies out from under theirs.
  /// A module whose plugin was refused (its stand-in is eager) says so in the activation
  /// column, which the table then has; it had no such column, and the refusal showed nowhere.
  @Test func everyCellStartsUnderItsHeading() throws {
    var optional = module("search", dependencies: ["notes"])
    optional.isOptional = true
    optional.isAsync = true
    var placed = module("worker")
    placed.placement = .process
    let plan = try BootPlan(modules: [module("notes"), optional, placed])
    for refused in [[], ["search"]] {
      let table = plan.table(refused: refused)
      let header = table[0]
      /// The offset of `heading` in the header, where its cells start.
      func column(_ heading: String) throws -> Int {
        let found = try #require(header.range(of: heading), "\(heading) in \(header)")
        return header.distance(from: header.startIndex, to: found.lowerBound)
      }
      let (start, dependencies) = (try column("start"), try column("depends on"))
      let rows = Dictionary(
        uniqueKeysWithValues: table.dropFirst().map { ($0.split(separator: " ")[1], $0) })
      for (name, cells) in [
        ("notes", ["sync", "-"]), ("search", ["async optional", "notes"]),
        ("worker", ["sync  process", "-"]),
      ] {
        let row = try #require(rows[Substring(name)], "\(table)")
        #expect(row.dropFirst(start).hasPrefix(cells[0]), "\(table)")
        #expect(row.dropFirst(dependencies).hasPrefix(cells[1]), "\(table)")
      }
      #expect(header.hasSuffix("activation") == !refused.isEmpty, "\(table)")
      if !refused.isEmpty {
        let activation = try column("activation")
        #expect(rows["search"]?.dropFirst(activation) == "plugin refused: fails at boot")
        #expect(rows["notes"]?.dropFirst(activation) == "eager")
      }
    }
  }
}
