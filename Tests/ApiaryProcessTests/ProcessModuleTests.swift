import ApiaryContainer
import ApiaryLifecycle
import ApiaryManifest
import ApiaryMediator
import ApiarySupport
import Foundation
import Testing

@testable import ApiaryKernel
@testable import ApiaryProcess

/// The host's side of placement in a kernel of the test's own: a Python module
/// (`Tests/Fixtures/ProcessPlacement/greeter.py`) behind ``ProcessModule`` and
/// ``ProcessTarget``, next to a Swift module in the process.
@Suite struct ProcessModuleTests {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/ProcessPlacement/greeter.py").path
  static let python = ProcessPlacement.onPath("python3")

  private func kernel(healthCheck: HealthCheckManifest? = nil) throws -> Kernel {
    let catalog = TypeCatalog()
    ProcessPlacement.prepare(catalog)
    catalog.register(NotesModule.self)
    catalog.register(NotesTarget.self)
    let notes = ModuleManifest(
      name: "notes", type: String(reflecting: NotesModule.self),
      targets: [
        TargetManifest(
          name: "notes", type: String(reflecting: NotesTarget.self),
          actions: [ActionManifest(name: "list")])
      ])
    let greeter = ModuleManifest(
      name: "greeter", type: "Python.Greeter", dependencies: ["notes"],
      targets: [
        TargetManifest(
          name: "greeter", type: "Python.GreeterTarget",
          actions: [
            ActionManifest(
              name: "greet", isRemote: true,
              parameters: [ParameterManifest(name: "name", kind: .string, defaultValue: "world")],
              returns: .string),
            ActionManifest(name: "countNotes", returns: .int),
            ActionManifest(
              name: "fail", parameters: [ParameterManifest(name: "why", kind: .string)]),
            ActionManifest(name: "crash"),
            ActionManifest(name: "stall", timeout: 0.2),
            ActionManifest(
              name: "gather", parameters: [ParameterManifest(name: "count", kind: .int)],
              timeout: 600),
            ActionManifest(name: "hang", timeout: 600),
          ])
      ], placement: .process, healthCheck: healthCheck)
    let proxy = ProcessPlacement.proxy(
      for: greeter, command: [Self.python ?? "python3", Self.script])
    return try Kernel(
      application: ApplicationManifest(name: "Test", scheme: "test", environment: .test),
      modules: [notes, proxy], catalog: catalog)
  }

  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func localAndRemoteCallsReachTheChildAndItsCallsReachTheHost() async throws {
    let kernel = try kernel()
    try await kernel.boot()
    let greeting = try performSynchronously(kernel.mediator, "greeter", "greet")
    #expect(greeting as? String == "hello, world")
    let remote = try await kernel.mediator.open("test://greeter/greet?name=Ada")
    #expect(remote as? String == "hello, Ada")
    // The child calls notes.list in the host while the host's call waits for it.
    let count = try await kernel.mediator.perform(target: "greeter", action: "countNotes")
    #expect(count as? Int == 3)
    await #expect(throws: MediatorError.self) {
      try await kernel.mediator.open("test://greeter/countNotes")
    }
    let failure = await #expect(throws: ChildCallError.self) {
      try await kernel.mediator.perform(
        target: "greeter", action: "fail", params: ["why": "a test"])
    }
    #expect(failure?.description == "greeter refuses: a test")
    let report = await kernel.events.post("greet.requested", payload: ["name": "Bo"])
    #expect(report.handledBy == ["greeter"])
    await kernel.shutdown()
    #expect(await kernel.startedModules.isEmpty)
  }

  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func aCrashFailsTheCallInFlightWithTheSignalAndTheHostGoesOn() async throws {
    let kernel = try kernel()
    try await kernel.boot()
    let error = await #expect(throws: ProcessModuleError.self) {
      try await kernel.mediator.perform(target: "greeter", action: "crash")
    }
    #expect(error?.module == "greeter")
    #expect(error?.reason == "killed by signal 11 (SIGSEGV)")
    await #expect(throws: ProcessModuleError.self) {
      try await kernel.mediator.perform(target: "greeter", action: "greet")
    }
    let notes = try performSynchronously(kernel.mediator, "notes", "list")
    #expect(notes as? [Int] == [1, 2, 3])
    await kernel.shutdown()
  }

  /// Synchronous callers holding every thread of Swift's pool, and a few more on threads of
  /// their own, all have a call in flight when the child exits (it does when the last call
  /// reaches it): each fails at once naming the exit, not after the action's 600 s, though no
  /// thread of the pool is free to learn how the child ended. It needs every thread of the pool,
  /// which other tests running meanwhile may hold while they wait for the pool: it runs alone,
  /// in a test process of its own.
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func callersHoldingThePoolLearnOfTheChildsExitAtOnce() async throws {
    guard AloneTestProcess.isAlone else {
      return try await AloneTestProcess.run(
        "ProcessModuleTests/callersHoldingThePoolLearnOfTheChildsExitAtOnce")
    }
    let kernel = try kernel()
    try await kernel.boot()
    let count = Self.pool + 3
    let results = await Self.callsHoldingThePool(
      kernel.mediator, "gather", params: ["count": count], count: count)
    for result in results {
      #expect(result.hasPrefix("module 'greeter' (pid "), "\(result)")
      #expect(result.hasSuffix("): exited with status 3"), "\(result)")
    }
    await kernel.shutdown()
  }

  static var pool: Int { ProcessInfo.processInfo.activeProcessorCount }

  /// Makes `count` synchronous calls of greeter's `action` at once, each of the pool's threads
  /// holding one and the others on threads of their own, and returns how each ended (its
  /// error's description); expects them all to end within 120 s.
  static func callsHoldingThePool(
    _ mediator: Mediator, _ action: String, params: [String: any Sendable] = [:], count: Int
  ) async -> [String] {
    let outcomes = Locked<[String]>([])
    let ended = DispatchSemaphore(value: 0)
    let call: @Sendable () -> Void = {
      let outcome: String
      do {
        _ = try mediator.perform(target: "greeter", action: action, params: params)
        outcome = "answered"
      } catch {
        outcome = "\(error)"
      }
      outcomes.withLock { $0.append(outcome) }
      ended.signal()
    }
    for _ in 0..<pool { Task.detached { call() } }  // each holds a thread of the pool
    for _ in pool..<count { Thread { call() }.start() }
    // The pool is held until the calls end: wait on a thread of its own, bounded generously.
    let allEnded = await withCheckedContinuation { continuation in
      Thread {
        let deadline = DispatchTime.now() + 120
        continuation.resume(
          returning: (0..<count).allSatisfy { _ in ended.wait(timeout: deadline) == .success })
      }.start()
    }
    #expect(allEnded)
    let results = outcomes.withLock { $0 }
    #expect(results.count == count)
    return results
  }

  /// The child stops serving while synchronous callers hold every thread of Swift's pool, and a
  /// few more on threads of their own, wait for it: its health check, which needs no thread of
  /// the pool, finds the ping unanswered, and the calls fail at once naming the hang, not after
  /// the action's 600 s. It runs alone, in a test process of its own (see above).
  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func aHungChildIsFoundWhileCallersHoldThePool() async throws {
    guard AloneTestProcess.isAlone else {
      return try await AloneTestProcess.run(
        "ProcessModuleTests/aHungChildIsFoundWhileCallersHoldThePool")
    }
    let kernel = try kernel(healthCheck: HealthCheckManifest(interval: 0.05, timeout: 1))
    try await kernel.boot()
    let results = await Self.callsHoldingThePool(kernel.mediator, "hang", count: Self.pool + 3)
    for result in results {
      #expect(result.hasPrefix("module 'greeter' (pid "), "\(result)")
      #expect(
        result.hasSuffix("): no answer to a health check ping within 1.0 seconds; killed"),
        "\(result)")
    }
    await kernel.shutdown()
  }

  // Without a bound, the call would wait forever: the test's own limit turns that into a
  // failure.
  @Test(.enabled(if: python != nil, "python3 is not installed"), .timeLimit(.minutes(1)))
  func anAwaitedCallPastItsTimeoutIsTimedOutAndTheChildServesTheNext() async throws {
    let kernel = try kernel()
    try await kernel.boot()
    // The child never answers "stall": the wire's deadline ends the call, as the mediator's
    // own limit ends any other awaited call.
    let error = await #expect(throws: MediatorError.self) {
      try await kernel.mediator.perform(target: "greeter", action: "stall")
    }
    guard case .timedOut(target: "greeter", action: "stall", let seconds)? = error?.details else {
      Issue.record("expected timedOut, got \(String(describing: error))")
      await kernel.shutdown()
      return
    }
    #expect(seconds == 0.2)
    let greeting = try await kernel.mediator.perform(target: "greeter", action: "greet")
    #expect(greeting as? String == "hello, world")
    await kernel.shutdown()
  }

  @Test func unrepresentableParametersAreRefusedNamingTheAction() async throws {
    struct Opaque: Sendable {}
    let error = #expect(throws: NotRepresentable.self) {
      try WireValue.encode(["when": Opaque()], what: "parameters of greeter.greet")
    }
    #expect(error?.description.hasPrefix("parameters of greeter.greet cannot cross") == true)
  }

  /// The child hands an action the parameters that came over the wire as the cast
  /// `plainValue as? [String: any Sendable]` did: the same keys, each member boxed alike.
  @Test func wireParametersArriveAsTheCastMadeThem() {
    let params: JSONValue = ["n": 1, "none": .null, "list": [1, .null], "object": ["x": "y"]]
    let converted = CallService.values(params)
    let cast = params.plainValue as? [String: any Sendable] ?? [:]
    #expect(converted.keys.sorted() == ["list", "n", "none", "object"])
    for (key, value) in cast {
      #expect(converted[key].map { "\(type(of: $0))" } == "\(type(of: value))")
      #expect(converted[key].map { String(reflecting: $0) } == String(reflecting: value))
    }
    #expect(converted["n"] as? Int == 1)
    #expect(CallService.values(.array([1])).isEmpty)
    #expect(CallService.values(nil).isEmpty)
  }

  /// A `perform` request's parameters are the object the writer would write, keys sorted; a
  /// value that cannot cross is named under `.params`, as in that object.
  @Test func performRequestsAreWrittenAsTheirObject() throws {
    let local = Parameters(["title": "Hi", "n": 2], target: "notes", action: "create")
    #expect(
      try ProcessTarget.request(local)
        == #"{"action":"create","params":{"n":2,"title":"Hi"},"target":"notes"}"#)
    struct Opaque: Sendable {}
    let bad = Parameters(["when": Opaque()], target: "notes", action: "create")
    let error = #expect(throws: NotRepresentable.self) { try ProcessTarget.request(bad) }
    #expect(error?.what == "parameters of notes.create")
    #expect(error?.path == ".params.when (Opaque)")
  }

  @Test func resultsAreCheckedAgainstTheDeclaredKind() {
    #expect(ProcessTarget.matches(.string("x"), .string))
    #expect(ProcessTarget.matches(.int(1), .double))
    #expect(ProcessTarget.matches(.null, .object))
    #expect(!ProcessTarget.matches(.string("1"), .int))
    #expect(!ProcessTarget.matches(.array([]), .object))
  }

  @Test func dependingOnAProcessPlacedModuleThatBindsServicesIsAProblem() {
    let store = ModuleManifest(
      name: "store", type: "StorePlugin.StoreModule",
      services: [ServiceManifest(protocolName: "NotebookKit.NoteStore", implementation: "S.F")],
      placement: .process)
    let notes = ModuleManifest(name: "notes", type: "N.M", dependencies: ["logging", "store"])
    let problems = ProcessPlacement.problems([store, notes])
    #expect(problems.map(\.location.keyPath) == ["dependencies[1]"])
    #expect(problems.first?.message.contains("its services (NotebookKit.NoteStore) cannot") == true)
    var inHost = store
    inHost.placement = .host
    #expect(ProcessPlacement.problems([inHost, notes]).isEmpty)
  }

  @Test func aChildThatNeverConnectsReadsEndOfInput() throws {
    let toChild = try testPipe()
    let fromChild = try testPipe()
    defer { _ = [toChild[0], fromChild[0]].map(close) }
    close(fromChild[1])  // the child's output ends before it answers the handshake
    let child = SilentChild(input: toChild[1], output: fromChild[0])
    let mediator = Mediator(scheme: "test", catalog: TypeCatalog())
    let context = ModuleContext(
      manifest: ModuleManifest(name: "mute", type: "Test.Mute", placement: .process),
      application: ApplicationManifest(name: "Test", scheme: "test"),
      container: Container(), mediator: mediator, events: EventBus())

    #expect(throws: ProcessModuleError.self) {
      try ProcessModule().connect(child: child, context: context)
    }
    // The host has closed its end of the child's input: past the handshake request the child
    // reads end of input, not "nothing yet". A child that a test running in parallel spawns at
    // this moment holds a copy of the write end until its `exec` closes it (close-on-exec), so
    // the end is waited for with `poll`, bounded, rather than read once.
    _ = fcntl(toChild[0], F_SETFL, O_NONBLOCK)
    var buffer = [UInt8](repeating: 0, count: 4096)
    var input = pollfd(fd: toChild[0], events: Int16(POLLIN), revents: 0)
    var last = -1
    for _ in 0..<50 where last != 0 {
      _ = poll(&input, 1, 200)
      last = read(toChild[0], &buffer, buffer.count)
      while last > 0 { last = read(toChild[0], &buffer, buffer.count) }
    }
    #expect(last == 0)
  }

  /// A child that prints a log line on its standard output during the handshake (a stray
  /// `print`) broke the wire protocol, and the handshake fails at once saying so: it waited for
  /// the module's timeout (30 s here), then said "'initialize' got no answer".
  @Test(.timeLimit(.minutes(1))) func aStrayLineInTheHandshakeBreaksTheWireAtOnce() throws {
    let (context, ends) = try Self.wire(timeout: 30)
    defer { ends.close() }
    let stray = Array("loading index from disk...\n".utf8)
    #expect(write(ends.child, stray, stray.count) == stray.count)
    let error = #expect(throws: ProcessModuleError.self) {
      try ProcessModule().connect(
        child: SilentChild(input: ends.hostInput, output: ends.host), context: context)
    }
    #expect(
      error?.reason
        == "broke the wire protocol (malformed frame header: loading index from disk...); ended")
  }

  /// A `setUp` answer of the wrong shape broke the wire protocol: `{"events": 5}` was taken
  /// for a child handling no events.
  @Test func aSetUpAnswerOfTheWrongShapeBreaksTheWire() throws {
    let (context, ends) = try Self.wire()
    defer { ends.close() }
    let child = RPCConnection(reading: ends.child, writing: ends.child)
    child.start { method, _ in
      method == "initialize"
        ? ProcessHost.handshake.message(module: "wire", pid: 1) : ["events": 5]
    }
    let error = #expect(throws: ProcessModuleError.self) {
      try ProcessModule().connect(
        child: SilentChild(input: ends.hostInput, output: ends.host), context: context)
    }
    #expect(
      error?.reason
        == "broke the wire protocol (malformed message: the result of 'setUp' needs to be an "
        + #"object with "events": an array of strings, found integer); ended"#)
    #expect(throws: RPCError.self) { try ProcessModule.events(["events": ["a", 1]]) }
    #expect(throws: RPCError.self) { try ProcessModule.events(.null) }
    #expect(try ProcessModule.events(["events": ["a"]]) == ["a"])
    #expect(try ProcessModule.events([:]) == [])
  }

  /// A child that closes its standard output and lives on is ended after the module's timeout,
  /// and calls fail saying so, not with the SIGTERM the host sent it: the child's exit, which
  /// its supervisor reports, was seen first ("killed by signal 15 (SIGTERM)"). The child here
  /// "exits" inside ``PlacedChild/terminate(grace:)``, reporting it as its supervisor does.
  @Test func aChildThatClosedItsOutputFailsCallsSayingSo() async throws {
    let (context, ends) = try Self.wire()
    defer { ends.close() }
    let child = RPCConnection(reading: ends.child, writing: ends.child)
    child.start { method, _ in
      switch method {
      case "initialize": return ProcessHost.handshake.message(module: "wire", pid: 1)
      case "setUp": return ["events": [String]()]
      default:
        shutdown(ends.child, Int32(SHUT_WR))  // closes its output instead of answering
        return nil
      }
    }
    let lingering = LingeringChild(input: ends.hostInput, output: ends.host, context: context)
    try ProcessModule().connect(child: lingering, context: context)
    let link = try ProcessModule.link(context)
    let failure = await #expect(throws: ProcessModuleError.self) {
      try await ProcessModule.call(link, "list")
    }
    #expect(
      failure?.reason
        == "closed its standard output but did not exit within 10.0 seconds; ended")
  }

  /// A context for a process-placed module `wire` with `timeout`, and a connected socket pair.
  static func wire(timeout: Double = 10) throws -> (ModuleContext, WireEnds) {
    let context = ModuleContext(
      manifest: ModuleManifest(
        name: "wire", type: "Test.Wire", startTimeout: timeout, placement: .process),
      application: ApplicationManifest(name: "Test", scheme: "test"),
      container: Container(), mediator: Mediator(scheme: "test", catalog: TypeCatalog()),
      events: EventBus())
    return (context, try WireEnds())
  }

  /// A child that breaks the wire is ended (SIGTERM), and its end may be seen before the
  /// connection's own end runs: calls in flight still fail with what it sent, not with how it
  /// ended. The child here "exits" inside ``PlacedChild/terminate(grace:)``, as at once as a
  /// real one may.
  @Test func callsFailWithTheBrokenWireNotTheExitItCaused() async throws {
    let (context, ends) = try Self.wire()
    defer { ends.close() }
    let child = RPCConnection(reading: ends.child, writing: ends.child)
    child.start { method, _ in
      switch method {
      case "initialize": return ProcessHost.handshake.message(module: "wire", pid: 1)
      case "setUp": return ["events": [String]()]
      default:  // instead of an answer, what is not a frame
        let garbage = Array("not a header\r\n\r\n".utf8)
        _ = write(ends.child, garbage, garbage.count)
        return nil
      }
    }
    let exits = ExitingChild(input: ends.hostInput, output: ends.host, context: context)
    try ProcessModule().connect(child: exits, context: context)
    let link = try ProcessModule.link(context)
    let failure = await #expect(throws: ProcessModuleError.self) {
      try await ProcessModule.call(link, "list")
    }
    #expect(
      failure?.description
        == "module 'wire' (pid 0): broke the wire protocol (malformed frame header: not a "
        + "header); ended")
  }
}

/// The two ends of a socket pair joining the host to a test's child. The host closes its
/// child's input when it gives the child up, so it writes to a copy of its end, `hostInput`,
/// which is its to close: a test that closed that descriptor again closed whatever a test
/// running in parallel had opened under the same number since (a host reading "Bad file
/// descriptor" instead of what its child sent).
struct WireEnds {
  let host: Int32
  let child: Int32
  let hostInput: Int32

  init() throws {
    var ends: [Int32] = [0, 0]
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    try #require(socketpair(AF_UNIX, type, 0, &ends) == 0)
    host = ends[0]
    child = ends[1]
    hostInput = fcntl(ends[0], F_DUPFD_CLOEXEC, 0)
    try #require(hostInput >= 0)
  }

  /// Closes the test's own ends; `hostInput` is the host's.
  func close() {
    for end in [host, child] { _ = Glibc.close(end) }
  }
}

/// A child whose process ends as soon as it is asked to: its end is reported to placement at
/// once.
private struct ExitingChild: PlacedChild {
  let pid: Int32 = 0
  let input: Int32
  let output: Int32
  let context: ModuleContext
  func terminate(grace: Duration) {
    ProcessModule().childDidExit("killed by signal 15 (SIGTERM)", context: context)
  }
  func exitDescription(waitingAtMost timeout: Duration) -> String? {
    "killed by signal 15 (SIGTERM)"
  }
}

/// A child that runs on until it is asked to end, then ends at once, reported to placement as
/// its supervisor reports an exit.
private final class LingeringChild: PlacedChild, Sendable {
  let pid: Int32 = 0
  let input: Int32
  let output: Int32
  let context: ModuleContext
  private let terminated = Locked(false)

  init(input: Int32, output: Int32, context: ModuleContext) {
    self.input = input
    self.output = output
    self.context = context
  }

  func terminate(grace: Duration) {
    terminated.withLock { $0 = true }
    ProcessModule().childDidExit("killed by signal 15 (SIGTERM)", context: context)
  }

  func exitDescription(waitingAtMost timeout: Duration) -> String? {
    terminated.withLock { $0 } ? "killed by signal 15 (SIGTERM)" : nil
  }
}

/// A child process that is only its two pipes.
private struct SilentChild: PlacedChild {
  let pid: Int32 = 0
  let input: Int32
  let output: Int32
  func terminate(grace: Duration) {}
  func exitDescription(waitingAtMost timeout: Duration) -> String? { "exited with status 0" }
}

final class NotesModule: Module {
  init() {}
}

final class NotesTarget: Target {
  init(context: ModuleContext) {}
  static let actions: ActionTable<NotesTarget> = ["list": .sync { _, _ in [1, 2, 3] }]
}

/// The synchronous `perform`, which `async` code would not pick.
private func performSynchronously(_ mediator: Mediator, _ target: String, _ action: String)
  throws -> (any Sendable)?
{
  try mediator.perform(target: target, action: action)
}
