import ApiaryManifest
import ApiarySupport
import Foundation
import Testing

@testable import ApiaryProcess

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Two connections joined by a socket pair, as host and child are joined by pipes.
struct Pair {
  let host: RPCConnection
  let child: RPCConnection
  let descriptors: [Int32]

  /// `hostSpin`: the host's spin window; tests that need a synchronous caller to read until
  /// its answer arrives pass ``longSpin``.
  init(hostSpin: UInt64? = nil) throws {
    var fds: [Int32] = [0, 0]
    // Close-on-exec, as the host's own descriptors: a child another test spawns meanwhile
    // would otherwise keep these ends open for its whole life.
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    guard socketpair(AF_UNIX, type, 0, &fds) == 0 else {
      throw ConnectionClosed(reason: "socketpair failed")
    }
    descriptors = fds
    host = RPCConnection(reading: fds[0], writing: fds[0], spinWindow: hostSpin)
    child = RPCConnection(reading: fds[1], writing: fds[1])
  }

  /// Closes the child's end, as a child that dies does.
  func breakChild() {
    shutdown(descriptors[1], Int32(SHUT_RDWR))
  }
}

@Suite struct RPCConnectionTests {
  @Test func callGetsTheResultOfTheMatchingRequest() async throws {
    let pair = try Pair()
    pair.host.start { _, _ in nil }
    pair.child.start { method, params in
      guard method == "echo" else { throw RPCError(RPCError.methodNotFound, "no \(method)") }
      return params["text"]?.stringValue.map { "echo: \($0)" }
    }
    let result = try await pair.host.call("echo", ["text": "hi"])
    #expect(result == .string("echo: hi"))
    await #expect(throws: RPCError(RPCError.methodNotFound, "no reboot")) {
      try await pair.host.call("reboot")
    }
    pair.breakChild()
  }

  /// Every request's handler starts at once, however many hold their threads: one more than
  /// there are processors keep their threads busy until all have started. On Dispatch's global
  /// queue (a thread per processor) the last never started (its monitor adds a thread only
  /// when one is blocked, and then after about a second: concurrent events to a process-placed
  /// module took a second each); each gives up after 30 s so that this fails instead of hangs.
  @Test func everyHandlerGetsAThreadAtOnce() async throws {
    let count = ProcessInfo.processInfo.activeProcessorCount + 1
    let pair = try Pair()
    let started = Locked(0)
    pair.host.start { _, _ in nil }
    pair.child.start { _, _ in
      started.withLock { $0 += 1 }
      let giveUp = ContinuousClock.now + .seconds(30)
      while started.withLock({ $0 }) < count, ContinuousClock.now < giveUp { sched_yield() }
      return started.withLock { $0 } >= count
    }
    let results = try await withThrowingTaskGroup(of: JSONValue.self) { group in
      for _ in 0..<count { group.addTask { try await pair.host.call("hold") } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results == Array(repeating: .bool(true), count: count))
    pair.breakChild()
  }

  /// Three requests in flight; the child answers them in reverse order (each waits on a gate
  /// the test opens), and each caller still gets its own answer.
  @Test func answersOutOfOrderReachTheirCallers() async throws {
    let pair = try Pair()
    let gates = Gates(count: 3)
    pair.host.start { _, _ in nil }
    pair.child.start { _, params in
      let index = params["index"]?.intValue ?? -1
      try awaitBlocking { await gates.arrive(index) }
      return index * 10
    }
    async let first = pair.host.call("work", ["index": 0])
    async let second = pair.host.call("work", ["index": 1])
    async let third = pair.host.call("work", ["index": 2])
    await gates.allArrived()
    #expect(pair.host.inFlightCount == 3)
    for index in [2, 1, 0] { await gates.open(index) }
    let results = try await [first, second, third]
    #expect(results == [.int(0), .int(10), .int(20)])
    pair.breakChild()
  }

  @Test func brokenPipeFailsEveryCallInFlightAndLaterOnes() async throws {
    let pair = try Pair()
    let gates = Gates(count: 2)
    pair.host.start { _, _ in nil }
    pair.child.start { _, params in
      try awaitBlocking { await gates.arrive(params["index"]?.intValue ?? 0) }
      return nil
    }
    async let first = Result { try await pair.host.call("hang", ["index": 0]) }
    async let second = Result { try await pair.host.call("hang", ["index": 1]) }
    await gates.allArrived()
    pair.breakChild()
    for outcome in await [first, second] {
      #expect(throws: ConnectionClosed.self) { try outcome.get() }
    }
    await #expect(throws: ConnectionClosed.self) { try await pair.host.call("later") }
    #expect(pair.host.hasEnded)
  }

  @Test func endedErrorNamesWhatTheOwnerSays() async throws {
    struct ChildDied: Error, Equatable { let reason: String }
    let pair = try Pair()
    let gates = Gates(count: 1)
    pair.host.start(handler: { _, _ in nil }, ended: { ChildDied(reason: "signal 9 after \($0)") })
    pair.child.start { _, _ in
      try awaitBlocking { await gates.arrive(0) }
      return nil
    }
    async let call = Result { try await pair.host.call("hang") }
    await gates.allArrived()
    pair.breakChild()
    let outcome = await call
    #expect(throws: ChildDied(reason: "signal 9 after end of input")) { try outcome.get() }
  }

  /// A peer whose answer is a frame that is not JSON-RPC (Python's `json.dumps` writes
  /// `Infinity`) broke the protocol: the call it may have answered fails at once, naming what
  /// came, not after its time limit.
  @Test(.timeLimit(.minutes(1))) func aFrameThatIsNotJSONRPCEndsTheConnection() async throws {
    struct Broke: Error, Equatable { let reason: String }
    let pair = try Pair()
    pair.host.start(handler: { _, _ in nil }, ended: { Broke(reason: $0) })
    pair.child.start { _, _ in
      try FrameWriter(descriptor: pair.descriptors[1]).send(
        #"{"jsonrpc": "2.0", "id": 1, "result": Infinity}"#)
      return nil
    }
    await #expect(
      throws: Broke(reason: "malformed message: not JSON: expected a value at byte 38")
    ) {
      try await pair.host.call("ratio")
    }
    pair.breakChild()
  }

  /// A response needs exactly one of `result` and `error`, an object: one with neither was
  /// answered as `null`, one with both as its error, and an error that is no object as an
  /// internal error.
  @Test func aResponseWithoutExactlyOneOutcomeIsMalformed() throws {
    func parse(_ text: String) throws(RPCError) -> RPCMessage { try RPCMessage(Array(text.utf8)) }
    let cases = [
      #"{"jsonrpc":"2.0","id":2}"#: #"a response needs "result" or "error", found neither"#,
      #"{"jsonrpc":"2.0","id":2,"result":1,"error":{"code":1,"message":"x"}}"#:
        #"a response has "result" or "error", found both"#,
      #"{"jsonrpc":"2.0","id":2,"error":"no"}"#:
        "the error of a response needs to be an object, found string",
    ]
    for (text, message) in cases {
      #expect(throws: RPCError(RPCError.invalidRequest, message), "\(text)") { try parse(text) }
    }
    guard case .response(2, .success(.null)) = try parse(#"{"jsonrpc":"2.0","id":2,"result":null}"#)
    else {
      Issue.record("a null result is a result")
      return
    }
  }

  /// A response that is malformed ends the connection at once, naming what is wrong, as a body
  /// that is not JSON does: the call it may have answered does not get `null`.
  @Test(.timeLimit(.minutes(1))) func aResponseWithNeitherResultNorErrorEndsTheConnection()
    async throws
  {
    struct Broke: Error, Equatable { let reason: String }
    let pair = try Pair()
    pair.host.start(handler: { _, _ in nil }, ended: { Broke(reason: $0) })
    pair.child.start { _, _ in
      try FrameWriter(descriptor: pair.descriptors[1]).send(#"{"jsonrpc":"2.0","id":1}"#)
      return nil
    }
    await #expect(
      throws: Broke(
        reason: #"malformed message: a response needs "result" or "error", found neither"#)
    ) {
      try await pair.host.call("ratio")
    }
    pair.breakChild()
  }

  /// A peer that stops reading but keeps its output open: the write that finds its input closed
  /// fails, and the connection ends with what the owner makes of ``RPCConnection/endOfOutput``,
  /// so later calls fail at once, though no end of input ever comes.
  @Test func aPeerThatClosedItsInputEndsTheConnectionAtTheFirstWrite() async throws {
    struct Deaf: Error, Equatable { let reason: String }
    _ = signal(SIGPIPE, SIG_IGN)  // as host and child do
    let pair = try Pair()
    let reported = Checkpoints()
    pair.host.start(
      handler: { _, _ in nil },
      ended: { reason in
        reported.pass(1)
        return Deaf(reason: reason)
      })
    pair.child.start { _, _ in nil }
    shutdown(pair.descriptors[1], Int32(SHUT_RD))
    await #expect(throws: ConnectionClosed.self) { try await pair.host.call("first") }
    try await reported.reached(1)
    // `ended`'s error is set just after it returns.
    while !pair.host.hasEnded { await Task.yield() }
    await #expect(throws: Deaf(reason: RPCConnection.endOfOutput)) {
      try await pair.host.call("later")
    }
    pair.breakChild()
  }

  /// A peer that printed a line that is not a frame and exited before the first request was
  /// written: the request fails with why the input ended, never with the write's failure
  /// ("write failed: Broken pipe"), whichever thread reads the input and whenever. Whether the
  /// host's write or its reading came first decided which it said.
  @Test func aPeerThatPrintedNoFrameAndExitedSaysWhatItPrinted() async throws {
    struct Broke: Error, Equatable { let reason: String }
    _ = signal(SIGPIPE, SIG_IGN)  // as host and child do
    for round in 0..<50 {
      let output = try testPipe()  // the peer's standard output, read by the connection
      let input = try testPipe()  // the peer's standard input, written by it
      var garbage = Array("hello\n".utf8)
      _ = write(output[1], &garbage, garbage.count)
      close(output[1])
      close(input[0])
      // `output[0]` stays open: the reader thread may still look at it.
      defer { close(input[1]) }
      let connection = RPCConnection(reading: output[0], writing: input[1])
      connection.start(handler: { _, _ in nil }, ended: { Broke(reason: $0) })
      let outcome =
        round.isMultiple(of: 2)
        ? await Task.detached { Result { try connection.callBlocking("initialize") } }.value
        : await Result { try await connection.call("initialize") }
      #expect(throws: Broke(reason: "malformed frame header: hello")) { try outcome.get() }
    }
  }

  @Test func blockingCallsWorkFromPlainThreads() async throws {
    let pair = try Pair()
    pair.host.start { _, _ in nil }
    pair.child.start { _, params in params["n"]?.intValue.map { $0 + 1 } }
    let host = pair.host
    let result = try await Task.detached { try host.callBlocking("inc", ["n": 41]) }.value
    #expect(result == .int(42))
    pair.breakChild()
  }

  @Test func requestsGoBothWays() async throws {
    let pair = try Pair()
    let host = pair.host
    pair.host.start { method, _ in method == "hostName" ? "host" : nil }
    pair.child.start { _, _ in
      // The child answers by calling back into the host while the host's call is in flight.
      let name = try pair.child.callBlocking("hostName")
      return "child saw \(name.stringValue ?? "")"
    }
    #expect(try await host.call("ask") == .string("child saw host"))
    pair.breakChild()
  }

  /// A request answered on the reader thread calls back into the host: the reader thread
  /// reads the host's answer itself instead of waiting for itself.
  @Test func inlineRequestCallsBackOnTheReaderThread() async throws {
    let pair = try Pair()
    let child = pair.child
    pair.host.start { method, params in
      method == "double" ? (params["n"]?.intValue ?? 0) * 2 : nil
    }
    pair.child.start(
      handler: { _, params in
        guard ReaderThread.isReading(for: child) else { return "answered on a worker" }
        // Two calls back in a row, each read by this thread.
        let once = try child.callBlocking("double", ["n": params["n"]?.intValue ?? 0])
        let twice = try child.callBlocking("double", ["n": once.intValue ?? 0])
        return twice
      }, inline: { $0 == "quadruple" })
    async let first = pair.host.call("quadruple", ["n": 1])
    async let second = pair.host.call("quadruple", ["n": 5])
    #expect(try await [first, second] == [.int(4), .int(20)])
    pair.breakChild()
  }

  /// Async work requested on the reader thread moves to a worker (it could wait for a frame
  /// only the reader would read), and a method not named inline runs on a worker.
  @Test func asyncWorkOnTheReaderThreadIsHandedToAWorker() async throws {
    let pair = try Pair()
    let child = pair.child
    pair.host.start { _, _ in nil }
    pair.child.start(
      handler: { method, _ in
        let onReader = ReaderThread.isReading(for: child)
        if method == "plain" { return onReader ? "reader" : "worker" }
        return try awaitBlocking { onReader ? "reader" : "worker" }
      }, inline: { $0 == "plain" || $0 == "async" })
    #expect(try await pair.host.call("plain") == .string("reader"))
    #expect(try await pair.host.call("async") == .string("worker"))
    #expect(try await pair.host.call("other") == .string("worker"))
    pair.breakChild()
  }

  /// The input ends while the reader thread waits for its own call's answer: that call fails
  /// with ``ConnectionClosed``, and so does every later one.
  @Test func inputEndingDuringAnInlineCallBackFailsIt() async throws {
    _ = signal(SIGPIPE, SIG_IGN)  // as host and child do: the late reply hits a closed socket
    let pair = try Pair()
    let child = pair.child
    let gates = Gates(count: 1)
    let failure = Locked<String?>(nil)
    let answered = Checkpoints()
    pair.host.start { _, _ in
      try awaitBlocking { await gates.arrive(0) }
      return nil
    }
    pair.child.start(
      handler: { _, _ in
        do {
          _ = try child.callBlocking("hang")
        } catch {
          failure.withLock { $0 = "\(error)" }
        }
        answered.pass(1)
        return nil
      }, inline: { _ in true })
    async let call = Result { try await pair.host.call("ask") }
    await gates.allArrived()
    pair.breakChild()
    let outcome = await call
    #expect(throws: ConnectionClosed.self) { try outcome.get() }
    try await answered.reached(1)
    #expect(failure.withLock { $0 } == "connection closed: end of input")
    await gates.open(0)
  }

  /// A synchronous caller reads the connection while it waits: an answer to an earlier
  /// `await`ed call that arrives first reaches its caller, and a request from the child that
  /// comes meanwhile is read by the synchronous caller (answered on a worker, not on the
  /// reader thread, whose watch is off), then the caller gets its own answer.
  @Test func synchronousCallerReadsAnEarlierAnswerBeforeItsOwn() async throws {
    let pair = try Pair(hostSpin: longSpin)
    let (host, child) = (pair.host, pair.child)
    let earlier = Gates(count: 1)
    let own = Gates(count: 1)
    host.start(
      handler: { _, _ in ReaderThread.isReading(for: host) ? "reader thread" : "worker" },
      inline: { $0 == "probe" })
    child.start { method, _ in
      if method == "earlier" {
        try awaitBlocking { await earlier.arrive(0) }
        return "earlier answer"
      }
      let probe = try child.callBlocking("probe")
      try awaitBlocking { await own.arrive(0) }
      return probe
    }
    async let first = host.call("earlier")
    await earlier.allArrived()
    async let second = onThread { try host.callBlocking("own") }
    await own.allArrived()  // the caller reads now: it read the probe
    await earlier.open(0)
    #expect(try await first == .string("earlier answer"))
    await own.open(0)
    #expect(try await second.get() == .string("worker"))
    pair.breakChild()
  }

  /// Notifications and requests from the child that arrive while a synchronous caller reads
  /// are served (the child's answer depends on the host's), and the caller still gets its
  /// answer.
  @Test func childMessagesAreServedWhileASynchronousCallerReads() async throws {
    let pair = try Pair(hostSpin: longSpin)
    let (host, child) = (pair.host, pair.child)
    let noted = Checkpoints()
    let notes = Locked<[String]>([])
    host.start { method, params in
      switch method {
      case "note":
        notes.withLock { $0.append(params["text"]?.stringValue ?? "") }
        noted.pass(1)
        return nil
      case "double": return (params["n"]?.intValue ?? 0) * 2
      default: return nil
      }
    }
    child.start { _, params in
      try child.notify("note", ["text": "asked"])
      let doubled = try child.callBlocking("double", ["n": params["n"]?.intValue ?? 0])
      return (doubled.intValue ?? 0) + 1
    }
    let answer = await onThread { try host.callBlocking("ask", ["n": 20]) }
    #expect(try answer.get() == .int(41))
    try await noted.reached(1)
    #expect(notes.withLock { $0 } == ["asked"])
    pair.breakChild()
  }

  /// Two synchronous callers at once: one reads, the other waits; the second one's answer,
  /// arriving first, is read by the first and still reaches the second.
  @Test func twoSynchronousCallersEachGetTheirOwnAnswer() async throws {
    let pair = try Pair(hostSpin: longSpin)
    let host = pair.host
    let gates = Gates(count: 2)
    host.start { _, _ in nil }
    pair.child.start { _, params in
      let index = params["index"]?.intValue ?? -1
      try awaitBlocking { await gates.arrive(index) }
      return index * 10
    }
    async let first = onThread { try host.callBlocking("work", ["index": 0]) }
    async let second = onThread { try host.callBlocking("work", ["index": 1]) }
    await gates.allArrived()
    await gates.open(1)
    #expect(try await second.get() == .int(10))
    await gates.open(0)
    #expect(try await first.get() == .int(0))
    pair.breakChild()
  }

  /// The child dies while a synchronous caller reads: the caller reads the end itself, and its
  /// call fails with the owner's error (the host names the child's exit there), not a hang.
  @Test func childDyingWhileASynchronousCallerReadsFailsTheCall() async throws {
    struct ChildDied: Error, Equatable { let reason: String }
    let pair = try Pair(hostSpin: longSpin)
    let host = pair.host
    let gates = Gates(count: 1)
    host.start(handler: { _, _ in nil }, ended: { ChildDied(reason: "signal 9 after \($0)") })
    pair.child.start { _, _ in
      try awaitBlocking { await gates.arrive(0) }
      return nil
    }
    async let outcome = onThread { try host.callBlocking("hang") }
    await gates.allArrived()
    pair.breakChild()
    let result = await outcome
    #expect(throws: ChildDied(reason: "signal 9 after end of input")) { try result.get() }
    #expect(host.hasEnded)
    await gates.open(0)
  }

  /// A synchronous caller that reads still ends its call at its time limit.
  @Test func synchronousCallerThatReadsStillTimesOut() async throws {
    let pair = try Pair(hostSpin: longSpin)
    let host = pair.host
    let gates = Gates(count: 1)
    host.start { _, _ in nil }
    pair.child.start { _, _ in
      try awaitBlocking { await gates.arrive(0) }
      return nil
    }
    let outcome = await onThread { try host.callBlocking("hang", seconds: 0.01) }
    #expect(throws: CallTimedOut(method: "hang", seconds: 0.01)) { try outcome.get() }
    await gates.open(0)
    pair.breakChild()
  }

  @Test func unrepresentableParametersAreRefusedBeforeSending() async throws {
    struct Opaque {}
    let pair = try Pair()
    pair.host.start { _, _ in nil }
    pair.child.start { _, _ in nil }
    let error = await #expect(throws: NotRepresentable.self) {
      try await pair.host.call("perform", ["when": Opaque()], what: "parameters of notes.create")
    }
    #expect(error?.description.hasPrefix("parameters of notes.create cannot cross") == true)
    #expect(error?.path == ".when (Opaque)")
    #expect(pair.host.inFlightCount == 0)
    pair.breakChild()
  }
}

/// A spin window longer than any test: a synchronous caller that takes the read side keeps it
/// until its answer arrives, so the thread that reads each frame is certain.
private let longSpin: UInt64 = 60_000_000_000

/// Runs a synchronous call on a thread of its own, as a module's synchronous code does (it
/// blocks that thread, not one of Swift's).
private func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async -> Result<
  T, any Error
> {
  await withCheckedContinuation { continuation in
    Thread {
      continuation.resume(returning: Result { try body() })
    }.start()
  }
}

/// Gates a test opens: each handler arrives at its gate and waits until the test opens it.
private actor Gates {
  private var arrived: Set<Int> = []
  private var waitingForAll: [CheckedContinuation<Void, Never>] = []
  private var opened: Set<Int> = []
  private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
  private let count: Int

  init(count: Int) { self.count = count }

  func arrive(_ index: Int) async {
    arrived.insert(index)
    if arrived.count == count {
      for continuation in waitingForAll { continuation.resume() }
      waitingForAll = []
    }
    guard !opened.contains(index) else { return }
    await withCheckedContinuation { waiting[index] = $0 }
  }

  func allArrived() async {
    guard arrived.count < count else { return }
    await withCheckedContinuation { waitingForAll.append($0) }
  }

  func open(_ index: Int) {
    opened.insert(index)
    waiting.removeValue(forKey: index)?.resume()
  }
}

extension Result where Failure == any Error {
  fileprivate init(catching body: () async throws -> Success) async {
    do { self = .success(try await body()) } catch { self = .failure(error) }
  }
}
