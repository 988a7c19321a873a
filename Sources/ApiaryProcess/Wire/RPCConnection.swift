import ApiaryManifest
import ApiarySupport
import Dispatch
import Foundation

/// A JSON-RPC 2.0 connection over two file descriptors (a child's standard output and input,
/// or a socket pair), pipelined: any number of requests in flight in both directions, answered
/// in any order.
///
/// Requests get increasing integer ids; each waits in an in-flight table until its response
/// arrives. A reader thread reads frames: responses complete their request, requests and
/// notifications run `handler` on a Dispatch worker of their own (so a slow one holds up
/// nothing, and one that blocks its thread waiting for another answer cannot stall reading), or,
/// for the methods `inline` names, on the reader thread itself (no thread hand-off: the child
/// answers `perform` this way). A blocking call made on the reader thread reads the frames
/// itself until its answer arrives, answering requests that come meanwhile, so a request
/// answered inline may call back. When the input ends or breaks, every request in flight and
/// every later one fails with the error `ended` makes (by default ``ConnectionClosed``).
///
/// ```swift
/// let connection = RPCConnection(reading: child.output, writing: child.input)
/// connection.start { method, params in
///   method == "ping" ? [String: Int]() : nil
/// }
/// let result = try await connection.call("perform", ["target": "notes", "action": "list"])
/// ```
package final class RPCConnection: Sendable {
  /// Answers a request or notification: a JSON-representable result, or throws (an
  /// ``RPCError`` keeps its code; any other error becomes ``RPCError/failed``). It runs on a
  /// Dispatch worker and may block it (see ``awaitBlocking(_:)`` for `async` work).
  package typealias Handler =
    @Sendable (_ method: String, _ params: JSONValue) throws -> (
      any Sendable
    )?

  private typealias Completion = @Sendable (Result<JSONValue, any Error>) -> Void

  private struct State {
    var nextID = 1
    var inFlight: [Int: Completion] = [:]
    var ended: (any Error)?
    var started = false
  }

  /// What only the reader thread touches: the frame reader, and why the input ended.
  ///
  /// `@unchecked Sendable`: it is created before the reader thread starts and then used only on
  /// that thread (``RPCConnection/step()``, reached from the read loop and from blocking calls
  /// made on that thread, which ``ReaderThread`` identifies).
  private final class Reading: @unchecked Sendable {
    var frames: FrameReader
    var handler: Handler = { _, _ in nil }
    var inline: @Sendable (String) -> Bool = { _ in false }
    var endReason: String?

    init(descriptor: Int32) { frames = FrameReader(descriptor: descriptor) }
  }

  private let reading: Reading
  private let writer: FrameWriter
  private let state = Locked(State())

  /// A connection reading frames from `reading` and writing them to `writing`. Nothing is read
  /// until ``start(handler:inline:ended:)``.
  package init(reading: Int32, writing: Int32) {
    self.reading = Reading(descriptor: reading)
    self.writer = FrameWriter(descriptor: writing)
  }

  /// Starts the reader thread. Requests whose method `inline` accepts are answered on it;
  /// `handler` may throw ``HandOff`` (as ``awaitBlocking(_:)`` does there) to be answered on a
  /// worker instead. `ended` turns the reason the input ended into the error calls in flight
  /// fail with (the host waits there for the child's exit status, to name it).
  package func start(
    handler: @escaping Handler,
    inline: @escaping @Sendable (String) -> Bool = { _ in false },
    ended: @escaping @Sendable (String) async -> any Error = { ConnectionClosed(reason: $0) }
  ) {
    let first = state.withLock { state in
      defer { state.started = true }
      return !state.started
    }
    guard first else { return }
    reading.handler = handler
    reading.inline = inline
    let thread = Thread { [self] in
      ReaderThread.enter(self)
      let reason = self.readLoop()
      ReaderThread.enter(nil)
      Task { self.end(with: await ended(reason)) }
    }
    thread.name = "apiary.rpc-reader"
    thread.start()
  }

  /// Number of requests waiting for their response.
  package var inFlightCount: Int { state.withLock { $0.inFlight.count } }

  /// Whether the connection has ended.
  package var hasEnded: Bool { state.withLock { $0.ended != nil } }

  /// Sends a request and returns its result.
  package func call(_ method: String, _ params: Any? = [String: Any](), what: String? = nil)
    async throws -> JSONValue
  {
    try await withCheckedThrowingContinuation { continuation in
      do {
        try send(method, params, what: what) { continuation.resume(with: $0) }
      } catch {
        continuation.resume(throwing: error)
      }
    }
  }

  /// Sends a request and blocks the calling thread until its result, for synchronous callers;
  /// past `seconds` the request is abandoned (its late response dropped) and
  /// ``CallTimedOut`` thrown.
  package func callBlocking(
    _ method: String, _ params: Any? = [String: Any](), what: String? = nil,
    seconds: Double? = nil
  ) throws -> JSONValue {
    if ReaderThread.isReading(for: self) { return try callOnReader(method, params, what: what) }
    let semaphore = DispatchSemaphore(value: 0)
    let outcome = Locked<Result<JSONValue, any Error>?>(nil)
    let id = try send(method, params, what: what) { result in
      outcome.withLock { $0 = result }
      semaphore.signal()
    }
    if let seconds {
      if semaphore.wait(timeout: .now() + seconds) == .timedOut {
        let abandoned = state.withLock { $0.inFlight.removeValue(forKey: id) != nil }
        if abandoned { throw CallTimedOut(method: method, seconds: seconds) }
        semaphore.wait()  // the response won the race; its completion is signalling
      }
    } else {
      semaphore.wait()
    }
    guard let result = outcome.withLock({ $0 }) else {
      throw ConnectionClosed(reason: "no outcome")
    }
    return try result.get()
  }

  /// A blocking call on the reader thread: reads and answers frames until its own answer
  /// arrives (nothing else would read it). Not bounded in time: the caller that made the
  /// reader thread answer a request bounds the whole exchange.
  private func callOnReader(_ method: String, _ params: Any?, what: String?) throws -> JSONValue {
    let outcome = Locked<Result<JSONValue, any Error>?>(nil)
    try send(method, params, what: what) { result in outcome.withLock { $0 = result } }
    while true {
      if let result = outcome.withLock({ $0 }) { return try result.get() }
      if let reason = step() { throw ConnectionClosed(reason: reason) }
    }
  }

  /// Sends a notification: a message that gets no response.
  package func notify(_ method: String, _ params: Any? = [String: Any](), what: String? = nil)
    throws
  {
    let text = try WireValue.encode(params, what: what ?? "parameters of '\(method)'")
    if let ended = state.withLock({ $0.ended }) { throw ended }
    try writer.send(RPCMessage.request(id: nil, method: method, params: text))
  }

  /// Registers `completion` under a new id and writes the request; returns the id.
  @discardableResult
  private func send(
    _ method: String, _ params: Any?, what: String?, completion: @escaping Completion
  ) throws -> Int {
    let text = try WireValue.encode(params, what: what ?? "parameters of '\(method)'")
    let registered = state.withLock { state -> Result<Int, any Error> in
      if let ended = state.ended { return .failure(ended) }
      let id = state.nextID
      state.nextID += 1
      state.inFlight[id] = completion
      return .success(id)
    }
    let id = try registered.get()
    do {
      try writer.send(RPCMessage.request(id: id, method: method, params: text))
    } catch {
      // A broken pipe: the reader sees the end too and fails the rest with the real reason.
      if state.withLock({ $0.inFlight.removeValue(forKey: id) }) != nil {
        throw ConnectionClosed(reason: "\(error)")
      }
    }
    return id
  }

  /// Closes the writing side: the peer reads the end of its input. Calls in flight stay in
  /// flight until their answers arrive or the connection ends.
  package func closeOutput() {
    writer.close()
  }

  /// Fails every request in flight, and every later one, with `error`; the first call wins.
  package func end(with error: any Error) {
    let failed = state.withLock { state -> [Completion] in
      guard state.ended == nil else { return [] }
      state.ended = error
      defer { state.inFlight = [:] }
      return Array(state.inFlight.values)
    }
    for completion in failed { completion(.failure(error)) }
  }

  /// Reads frames until the input ends; returns why it ended.
  private func readLoop() -> String {
    while true {
      if let reason = step() { return reason }
    }
  }

  /// Reads one frame and acts on it; returns why the input ended, or nil. Reader thread only.
  private func step() -> String? {
    if let reason = reading.endReason { return reason }
    let body: [UInt8]
    do {
      guard let next = try reading.frames.next() else {
        reading.endReason = "end of input"
        return reading.endReason
      }
      body = next
    } catch {
      reading.endReason = "\(error)"
      return reading.endReason
    }
    let message: RPCMessage
    do {
      message = try RPCMessage(body)
    } catch {
      try? writer.send(RPCMessage.error(id: .null, error))
      return nil
    }
    let handler = reading.handler
    switch message {
    case .response(let id, let outcome):
      let completion = state.withLock { $0.inFlight.removeValue(forKey: id) }
      completion?(outcome.mapError { $0 })
    case .request(let id, let method, let params):
      if !reading.inline(method) || !answer(id, method, params, handler) {
        DispatchQueue.global().async { [self] in _ = answer(id, method, params, handler) }
      }
    case .notification(let method, let params):
      DispatchQueue.global().async { _ = try? handler(method, params) }
    }
    return nil
  }

  /// Runs `handler` for a request and writes its answer; false when it threw ``HandOff``
  /// (nothing written: answer it on a worker).
  private func answer(
    _ id: JSONValue, _ method: String, _ params: JSONValue, _ handler: Handler
  ) -> Bool {
    let reply: String
    do {
      let result = try handler(method, params)
      reply = RPCMessage.result(
        id: id, try WireValue.encode(result, what: "the result of '\(method)'"))
    } catch is HandOff {
      return false
    } catch let error as RPCError {
      reply = RPCMessage.error(id: id, error)
    } catch let error as NotRepresentable {
      reply = RPCMessage.error(id: id, RPCError(RPCError.notRepresentable, "\(error)"))
    } catch {
      reply = RPCMessage.error(id: id, RPCError(RPCError.failed, "\(error)"))
    }
    try? writer.send(reply)
    return true
  }
}

/// The connection ended (the peer exited, closed its end, or sent something unreadable);
/// every call in flight fails with it.
package struct ConnectionClosed: Error, Sendable, Hashable, CustomStringConvertible {
  package let reason: String
  package var description: String { "connection closed: \(reason)" }
}

/// A synchronous call got no answer within its time limit.
package struct CallTimedOut: Error, Sendable, Hashable, CustomStringConvertible {
  package let method: String
  package let seconds: Double
  package var description: String { "'\(method)' got no answer within \(seconds) s" }
}

/// Runs `async` work from a thread that may block (a handler's Dispatch worker) and returns its
/// result. On a connection's reader thread it throws ``HandOff`` before running anything: the
/// work might wait for a frame only that thread would read, so the request moves to a worker.
package func awaitBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws
  -> T
{
  if ReaderThread.isReading { throw HandOff() }
  let semaphore = DispatchSemaphore(value: 0)
  let outcome = Locked<Result<T, any Error>?>(nil)
  Task {
    let result: Result<T, any Error>
    do { result = .success(try await body()) } catch { result = .failure(error) }
    outcome.withLock { $0 = result }
    semaphore.signal()
  }
  semaphore.wait()
  guard let result = outcome.withLock({ $0 }) else { throw ConnectionClosed(reason: "no outcome") }
  return try result.get()
}
