import Apiary
import ApiaryTesting
import Testing

@Suite struct TestApplicationTests {
  @Test func bootsInlineManifestsAndRecordsCalls() async throws {
    let app = try TestApplication(manifest: greeterManifest)
    try await app.boot()
    let local = try await app.mediator.perform(target: "greeter", action: "greet")
    let remote = try await app.mediator.open("test://greeter/greet?name=Ada")
    #expect(local as? String == "hello, world")
    #expect(remote as? String == "hello, Ada")
    let calls = app.recordedCalls
    #expect(calls.map(\.action) == ["greet", "greet"])
    #expect(calls.map(\.succeeded) == [true, true])
    #expect(calls.first?.call.params["name"] as? String == "world")
    #expect(calls.last?.call.origin == .remote(url: "test://greeter/greet?name=Ada"))
    await app.shutdown()
  }

  @Test func recordsFailedCalls() async throws {
    let app = try TestApplication(manifest: greeterManifest)
    try await app.boot()
    app.mediator.intercept(.global, .before { _ in .veto("closed") })
    #expect(throws: MediatorError.self) {
      try app.mediator.perform(target: "greeter", action: "greet")
    }
    #expect(app.recordedCalls.map(\.succeeded) == [false])
    await app.shutdown()
  }

  @Test func fakeReplacesTheModulesBindingAndStaysOutOfTheRecords() async throws {
    let app = try TestApplication(
      manifest: greeterManifest, fakes: [Fake((any Greeting).self) { _ in Ahoy() }])
    try await app.boot()
    let greeting = try await app.mediator.perform(target: "greeter", action: "greet")
    #expect(greeting as? String == "ahoy, world")
    #expect(app.modules(in: .setUp) == ["greeter", "audience"])
    await app.shutdown()
    #expect(app.modules(in: .tearDown) == ["audience", "greeter"])
  }

  @Test func fakeCanProvideAServiceNoModuleBinds() async throws {
    let app = try TestApplication(
      manifest: greeterManifest, fakes: [Fake(String.self, name: "motto") { _ in "be kind" }])
    try await app.boot()
    #expect(try app.container.resolve(String.self, name: "motto") == "be kind")
    await app.shutdown()
  }

  @Test func recordsChosenEventsInPostOrder() async throws {
    let app = try TestApplication(manifest: greeterManifest)
    app.recordEvents("greeted")
    try await app.boot()
    let report = await app.events.post("greet")
    #expect(report.handledBy == ["greeter"])
    let events = app.recordedEvents
    #expect(events.map(\.name) == ["greeted"])
    #expect(events.first?.sender == "greeter")
    #expect(events.first?.payload["word"] as? String == "hello")
    await app.shutdown()
  }

  @Test func teardownRunsInReverseOfStart() async throws {
    let app = try TestApplication(manifest: greeterManifest)
    try await app.boot()
    #expect(app.modules(in: .start) == ["greeter", "audience"])
    #expect(app.modules(in: .tearDown) == [])
    await app.shutdown()
    #expect(app.modules(in: .tearDown) == ["audience", "greeter"])
  }

  @Test func registrationsAreListedUntilTheModuleIsUnloaded() async throws {
    let app = try TestApplication(manifest: greeterManifest)
    try await app.boot()
    let registered = app.registrations(of: "greeter")
    #expect(registered.contains { $0.hasPrefix("binding ") && $0.contains("Greeting") })
    #expect(registered.contains("target greeter"))
    #expect(registered.contains("subscription greet"))
    try await app.remove("audience")
    try await app.remove("greeter")
    #expect(app.registrations(of: "greeter") == [])
    #expect(app.modules(in: .tearDown) == ["audience", "greeter"])
    await app.shutdown()
  }

  @Test func shutdownWithdrawsEverything() async throws {
    let app = try TestApplication(
      manifest: greeterManifest, fakes: [Fake((any Greeting).self) { _ in Ahoy() }])
    try await app.boot()
    #expect(!app.registrations(of: "greeter").isEmpty)
    await app.shutdown()
    #expect(app.registrations(of: "greeter") == [])
    #expect(!app.container.isBound((any Greeting).self))
  }

  @Test func invalidInlineManifestReportsEveryProblemWithItsPosition() throws {
    let manifest = """
      { "schemaVersion": 1, "modules": [
        { "name": "greeter", "type": "ApiaryTestingTests.GreeterModule", "priorty": 1 },
        { "name": "ghost", "type": "Nowhere.Ghost" } ] }
      """
    do {
      _ = try TestApplication(manifest: manifest)
      Issue.record("an invalid manifest was accepted")
    } catch {
      guard case .invalidManifests(let problems) = error.details else {
        Issue.record("expected invalidManifests, got \(error)")
        return
      }
      let lines = problems.map(\.description)
      #expect(lines.count == 2)
      #expect(lines.first?.hasPrefix("inline manifest:2:") == true)
      #expect(lines.first?.contains("did you mean 'priority'") == true)
      #expect(lines.last?.contains("Nowhere.Ghost") == true)
    }
  }

  @Test func modulesCanBeGivenAsValues() async throws {
    let app = try TestApplication(modules: [
      ModuleManifest(name: "audience", type: "ApiaryTestingTests.AudienceModule")
    ])
    try await app.boot()
    #expect(app.modules(in: .start) == ["audience"])
    await app.shutdown()
  }
}

/// The example in `TestApplication`'s documentation, with a catalog that gives this test target's
/// types the plugin's names.
@Suite struct TestApplicationDocumentationTests {
  @Test func greeterGreetsAndWithdrawsEverything() async throws {
    let catalog = TypeCatalog()
    catalog.register(GreeterModule.self, as: "GreeterPlugin.GreeterModule")
    catalog.register(GreeterTarget.self, as: "GreeterPlugin.GreeterTarget")
    let app = try TestApplication(
      manifest: """
        { "schemaVersion": 1, "modules": [
          { "name": "greeter", "type": "GreeterPlugin.GreeterModule",
            "targets": [ { "name": "greeter", "type": "GreeterPlugin.GreeterTarget",
              "actions": [ { "name": "greet", "parameters": [
                { "name": "name", "type": "string", "default": "world" } ] } ] } ] } ] }
        """,
      fakes: [Fake((any Greeting).self) { _ in Ahoy() }], catalog: catalog)
    app.recordEvents("greeted")
    try await app.boot()
    let greeting = try await app.mediator.perform(target: "greeter", action: "greet")
    #expect(greeting as? String == "ahoy, world")
    #expect(app.recordedCalls.map(\.action) == ["greet"])
    await app.events.post("greet")
    #expect(app.recordedEvents.map(\.name) == ["greeted"])
    await app.shutdown()
    #expect(app.modules(in: .tearDown) == ["greeter"])
    #expect(app.registrations(of: "greeter").isEmpty)
  }
}
