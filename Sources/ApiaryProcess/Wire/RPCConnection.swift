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
/// nothing, and one that blocks its thread waiting for another answer cannot stall reading). When
/// the input ends or breaks, every request in flight and every later one fails with the error
/// `ended` makes (by default ``ConnectionClosed``).
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

  private let input: Int32
  private let writer: FrameWriter
  private let state = Locked(State())

  /// A connection reading frames from `reading` and writing them to `writing`. Nothing is read
  /// until ``start(handler:ended:)``.
  package init(reading: Int32, writing: Int32) {
    self.input = reading
    self.writer = FrameWriter(descriptor: writing)
  }

  /// Starts the reader thread. `ended` turns the reason the input ended into the error calls in
  /// flight fail with (the host waits there for the child's exit status, to name it).
  package func start(
    handler: @escaping Handler,
    ended: @escaping @Sendable (String) async -> any Error = { ConnectionClosed(reason: $0) }
  ) {
    let first = state.withLock { state in
      defer { state.started = true }
      return !state.started
    }
    guard first else { return }
    let thread = Thread { [self] in
      let reason = self.readLoop(handler)
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
  private func readLoop(_ handler: @escaping Handler) -> String {
    var reader = FrameReader(descriptor: input)
    while true {
      let body: [UInt8]
      do {
        guard let next = try reader.next() else { return "end of input" }
        body = next
      } catch {
        return "\(error)"
      }
      let message: RPCMessage
      do {
        message = try RPCMessage(body)
      } catch {
        try? writer.send(RPCMessage.error(id: .null, error))
        continue
      }
      switch message {
      case .response(let id, let outcome):
        let completion = state.withLock { $0.inFlight.removeValue(forKey: id) }
        completion?(outcome.mapError { $0 })
      case .request(let id, let method, let params):
        DispatchQueue.global().async { [writer] in
          let reply: String
          do {
            let result = try handler(method, params)
            reply = RPCMessage.result(
              id: id, try WireValue.encode(result, what: "the result of '\(method)'"))
          } catch let error as RPCError {
            reply = RPCMessage.error(id: id, error)
          } catch let error as NotRepresentable {
            reply = RPCMessage.error(id: id, RPCError(RPCError.notRepresentable, "\(error)"))
          } catch {
            reply = RPCMessage.error(id: id, RPCError(RPCError.failed, "\(error)"))
          }
          try? writer.send(reply)
        }
      case .notification(let method, let params):
        DispatchQueue.global().async { _ = try? handler(method, params) }
      }
    }
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
/// result.
package func awaitBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws
  -> T
{
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
