import ApiaryContainer
import ApiaryKernel
import ApiaryLifecycle
import ApiaryManifest
import ApiaryMediator
import ApiarySupport
import Dispatch
import Testing

@testable import ApiaryProcess

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A request answered on the reader thread that blocks it (a synchronous action that hangs):
/// another thread takes over reading, so the other calls and pings are still answered, and the
/// blocked request's answer arrives once it returns. Each wait is on a gate; the time limits of
/// the calls only turn a deaf connection into a failure instead of a hang.
@Suite struct ReaderTakeoverTests {
  /// How long a call that should be answered may take before the test fails.
  static let limit = 30.0

  @Test func aBlockedInlineRequestLeavesTheConnectionServing() async throws {
    let pair = try Pair()
    let started = Gate()
    let release = DispatchSemaphore(value: 0)
    pair.host.start { _, _ in nil }
    pair.child.start(
      handler: { method, _ in
        guard method == "block" else { return method }
        started.open()
        release.wait()
        return "released"
      }, inline: { _ in true })
    // A call, then a pause: the watch's ticks stop while the reader thread waits for input,
    // and must start again when it next reads. (Whether they stopped first or not, the test
    // must pass; the pause only makes it likely that this path is taken.)
    #expect(try await pair.host.call("first", json: "{}", seconds: Self.limit) == "first")
    try await Task.sleep(for: .seconds(ReaderTakeover.period * 4))
    async let blocked = pair.host.call("block", json: "{}", seconds: Self.limit)
    await started.wait()
    let answers = await Result {
      [
        try await pair.host.call("echo", json: "{}", seconds: Self.limit),
        try await pair.host.call("ping", json: "{}", seconds: Self.limit),
      ]
    }
    release.signal()
    #expect(try answers.get() == [.string("echo"), .string("ping")])
    #expect(try await blocked == .string("released"))
    // The thread that was blocked answered and stopped reading; the new one reads on.
    for round in 0..<20 {
      #expect(
        try await pair.host.call("n\(round)", json: "{}", seconds: Self.limit)
          == .string("n\(round)"))
    }
    pair.breakChild()
  }

  /// The reader thread answers a request that calls back into the host; while it reads for
  /// that answer, a request it answers inline blocks. Another thread takes over: it answers
  /// the next calls and reads the callback's answer, which the first thread waits for once the
  /// blocked request returns.
  @Test func aBlockedRequestInsideACallBackIsTakenOverToo() async throws {
    let pair = try Pair()
    let (host, child) = (pair.host, pair.child)
    let started = Gate()
    let release = DispatchSemaphore(value: 0)
    host.start { method, _ in
      guard method == "relay" else { return nil }
      return try host.callBlocking("block", seconds: Self.limit)
    }
    child.start(
      handler: { method, _ in
        switch method {
        case "outer": return try child.callBlocking("relay")
        case "block":
          started.open()
          release.wait()
          return "released"
        default: return method
        }
      }, inline: { _ in true })
    async let outer = host.call("outer", json: "{}", seconds: Self.limit)
    await started.wait()
    let answer = await Result { try await host.call("echo", json: "{}", seconds: Self.limit) }
    release.signal()
    #expect(try answer.get() == .string("echo"))
    #expect(try await outer == .string("released"))
    #expect(try await host.call("again", json: "{}", seconds: Self.limit) == .string("again"))
    pair.breakChild()
  }

  /// The child of process placement (``ChildServer``) with a Swift module whose synchronous
  /// action blocks until the test releases it: a second call and a ping are answered
  /// meanwhile, then the blocked call's answer arrives, and the child ends when its input does.
  @Test func aPlacedModuleStuckInAnActionStillAnswersCallsAndPings() async throws {
    let toChild = try testPipe()
    let fromChild = try testPipe()
    let catalog = TypeCatalog()
    catalog.register(BlockerModule.self)
    catalog.register(BlockerTarget.self)
    let target = TargetManifest(
      name: "blocker", type: String(reflecting: BlockerTarget.self),
      actions: ["block", "greet"].map { ActionManifest(name: $0) })
    let server = try ChildServer(
      application: ApplicationManifest(name: "Test", scheme: "test", environment: .test),
      module: ModuleManifest(
        name: "blocker", type: String(reflecting: BlockerModule.self), targets: [target],
        placement: .process),
      catalog: catalog)
    async let served = server.serve(reading: toChild[0], writing: fromChild[1])
    let host = RPCConnection(reading: fromChild[0], writing: toChild[1])
    host.start { _, _ in nil }
    _ = try await host.call("initialize", ProcessHost.handshake.message(module: "blocker"))
    for hook in ["setUp", "start", "ready"] { _ = try await host.call(hook) }

    let perform = #"{"target":"blocker","action":"ACTION","params":{}}"#
    let blocked = Task {
      try await host.call(
        "perform", json: perform.replacing("ACTION", with: "block"), seconds: Self.limit)
    }
    await BlockerTarget.started.wait()
    let answers = await Result {
      [
        try await host.call(
          "perform", json: perform.replacing("ACTION", with: "greet"), seconds: Self.limit),
        try await host.call("ping", json: "{}", seconds: Self.limit),
      ]
    }
    BlockerTarget.release.signal()
    let released = await blocked.result
    host.closeOutput()  // before anything throws: the server ends with its input
    #expect(await served == 0)
    #expect(try answers.get() == [.string("hello"), .object([:])])
    #expect(try released.get() == .string("released"))
    for descriptor in [toChild[0], fromChild[0], fromChild[1]] { close(descriptor) }
  }
}

final class BlockerModule: Module {
  init() {}
}

/// `block` holds its thread until the test releases it; `greet` answers at once.
final class BlockerTarget: Target {
  static let started = Gate()
  static let release = DispatchSemaphore(value: 0)

  init(context: ModuleContext) {}

  static let actions: ActionTable<BlockerTarget> = [
    "block": .sync { _, _ in
      started.open()
      release.wait()
      return "released"
    },
    "greet": .sync { _, _ in "hello" },
  ]
}
