import ApiaryManifest
import ApiarySupport
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A JSON-RPC 2.0 connection over two file descriptors (a child's standard output and input,
/// or a socket pair), pipelined: any number of requests in flight in both directions, answered
/// in any order.
///
/// Requests get increasing integer ids; each waits in an in-flight table until its response
/// arrives. Frames are read by whichever thread holds the connection's ``ReadSide``: a thread
/// making a synchronous call, which reads its own answer while it waits (so the answer wakes no
/// other thread), or else a reader thread, which sleeps until input arrives. Whoever reads
/// keeps polling for ``Spin/window`` before it blocks (a caller after its request and each
/// frame, the reader thread after answering a request itself), since the peer often sends
/// within it. Responses complete their request; requests and notifications run `handler` on a
/// Dispatch worker of their own (so a slow one holds up nothing, and one that blocks its thread
/// waiting for another answer cannot stall reading), or, for the methods `inline` names, on the
/// reader thread itself (no thread hand-off: the child answers `perform` this way). A blocking
/// call made on the reader thread reads the frames itself until its answer arrives, answering
/// requests that come meanwhile, so a request answered inline may call back. One that blocks
/// the reader thread for a few milliseconds is left to it: a new reader thread takes over
/// reading (``ReaderTakeover``), and the old one exits once it has answered. When the input
/// ends or breaks, or a write finds that the peer closed its input (it can no longer be told
/// anything), every request in flight and every later one fails with the error `ended` makes
/// (by default ``ConnectionClosed``), on a thread of its own: `ended` may block (the host waits
/// there for the child's exit), and Swift's pool may be held by synchronous callers waiting for
/// exactly that end.
///
/// ```swift
/// let connection = RPCConnection(reading: child.output, writing: child.input)
/// connection.start { method, params in
///   method == "ping" ? [String: Int]() : nil
/// }
/// let result = try await connection.call("perform", ["target": "notes", "action": "list"])
/// ```
package final class RPCConnection: Sendable {
  /// The reason the input ended when the other side closed it, rather than sent a frame that
  /// does not parse (whose error is the reason then).
  package static let endOfInput = "end of input"
  /// The reason the connection ended when a write found the other side's input closed
  /// (`EPIPE`) while its output may still be open.
  package static let endOfOutput = "end of output"

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
    /// Whether frames may be read: the handlers are in place (callers lead only then).
    var reading = false
    /// Whether an end, of the input or of the output, has been reported (to `ended`, once).
    var endReported = false
  }

  /// What a holder of the read side uses to act on frames; set once, before any reading.
  private struct Handlers {
    var handler: Handler = { _, _ in nil }
    var inline: @Sendable (String) -> Bool = { _ in false }
    var ended: @Sendable (String) -> any Error = { ConnectionClosed(reason: $0) }
  }

  private let read: ReadSide
  /// Replaces a reader thread stuck in a request it answers itself.
  private let takeover = ReaderTakeover()
  /// Written once, by ``start(handler:inline:ended:)`` before it sets `State.reading` (under
  /// the state lock) and starts the reader thread; read only by holders of the read side, which
  /// take it only after seeing `State.reading` (or on that thread), and by a writer that saw
  /// `State.reading` (``reportEnd(_:)``), so every read follows the write.
  private nonisolated(unsafe) var handlers = Handlers()
  private let writer: FrameWriter
  private let state = Locked(State())
  /// How long whoever reads keeps polling after a frame, in nanoseconds (``Spin/window``).
  private let spinWindow: UInt64

  /// A connection reading frames from `reading` and writing them to `writing`. Nothing is read
  /// until ``start(handler:inline:ended:)``. `spinWindow` (nanoseconds; default
  /// ``Spin/window``) is for tests, which lengthen it to make certain which thread reads.
  package init(reading: Int32, writing: Int32, spinWindow: UInt64? = nil) {
    self.read = ReadSide(descriptor: reading)
    self.writer = FrameWriter(descriptor: writing)
    self.spinWindow = spinWindow ?? Spin.window
  }

  /// Starts the reader thread. Requests whose method `inline` accepts are answered on it;
  /// `handler` may throw ``HandOff`` (as ``awaitBlocking(_:)`` does there) to be answered on a
  /// worker instead. `ended` turns the reason the input ended into the error calls in flight
  /// fail with; it runs on a thread of its own and may block it (the host waits there for the
  /// child's exit status, to name it).
  package func start(
    handler: @escaping Handler,
    inline: @escaping @Sendable (String) -> Bool = { _ in false },
    ended: @escaping @Sendable (String) -> any Error = { ConnectionClosed(reason: $0) }
  ) {
    let first = state.withLock { state in
      defer { state.started = true }
      return !state.started
    }
    guard first else { return }
    handlers = Handlers(handler: handler, inline: inline, ended: ended)
    state.withLock { $0.reading = true }
    DetachedThread.start(name: "apiary.rpc-reader") { [self] in readLoop(holding: false) }
  }

  /// Starts a reader thread that carries on with the read side, which a reader thread stuck in
  /// an inline request holds (see ``ReaderTakeover``).
  func takeOverReading() {
    DetachedThread.start(name: "apiary.rpc-reader") { [self] in readLoop(holding: true) }
  }

  /// Number of requests waiting for their response.
  package var inFlightCount: Int { state.withLock { $0.inFlight.count } }

  /// Whether the connection has ended.
  package var hasEnded: Bool { state.withLock { $0.ended != nil } }

  /// Sends a request and returns its result. `what` names the parameters in the error when
  /// they cannot cross (by default "parameters of 'method'").
  package func call(_ method: String, _ params: Any? = [String: Any](), what: String? = nil)
    async throws -> JSONValue
  {
    try await call(method, json: Self.encode(params, method, what))
  }

  /// What an awaited call's deadline token holds before it is known, and once answered.
  private static let noToken = UInt64.max
  private static let answered = UInt64.max - 1

  /// Sends a request whose parameters are already JSON text and returns its result; past
  /// `seconds` the request is abandoned (its late response dropped) and ``CallTimedOut`` thrown.
  package func call(_ method: String, json params: String, seconds: Double? = nil) async throws
    -> JSONValue
  {
    // The in-flight table decides who resumes: the response's completion runs only if the
    // entry is still there, and the deadline resumes only if it removes the entry itself. The
    // deadline's token reaches whichever of the two sides comes second, which cancels it.
    let deadline = Atomic<UInt64>(Self.noToken)
    return try await withCheckedThrowingContinuation { continuation in
      do {
        let id = try send(method, params, input: .acquire) { result in
          let token = deadline.exchange(Self.answered, ordering: .acquiringAndReleasing)
          if token < Self.answered { Deadlines.shared.cancel(token) }
          continuation.resume(with: result)
        }
        guard let seconds else { return }
        let token = Deadlines.shared.schedule(after: seconds) { [self] in
          if state.withLock({ $0.inFlight.removeValue(forKey: id) }) != nil {
            continuation.resume(throwing: CallTimedOut(method: method, seconds: seconds))
          }
        }
        let stored = deadline.compareExchange(
          expected: Self.noToken, desired: token, ordering: .acquiringAndReleasing
        ).exchanged
        if !stored { Deadlines.shared.cancel(token) }  // answered already
      } catch {
        continuation.resume(throwing: error)
      }
    }
  }

  /// Sends a request and blocks the calling thread until its result, for synchronous callers;
  /// past `seconds` the request is abandoned (its late response dropped) and
  /// ``CallTimedOut`` thrown.
  ///
  /// While it waits, the caller reads the connection itself if no other thread does (see
  /// ``ReadSide``), for as long as frames keep coming within ``Spin/window``; then it blocks
  /// until the reader thread delivers the answer.
  package func callBlocking(
    _ method: String, _ params: Any? = [String: Any](), what: String? = nil,
    seconds: Double? = nil
  ) throws -> JSONValue {
    try callBlocking(method, json: Self.encode(params, method, what), seconds: seconds)
  }

  /// ``callBlocking(_:_:what:seconds:)`` with parameters that are already JSON text.
  package func callBlocking(_ method: String, json params: String, seconds: Double? = nil)
    throws -> JSONValue
  {
    if let reader = ReaderThread.current(for: self) {
      return try callOnReader(method, params, reader)
    }
    let semaphore = DispatchSemaphore(value: 0)
    let outcome = Locked<Result<JSONValue, any Error>?>(nil)
    // Take the read side before sending when it is free: the answer cannot come before it.
    let leading = state.withLock { $0.reading } && read.tryAcquireBeforeSending()
    let id: Int
    do {
      id = try send(method, params, input: leading ? .held : .acquire) { result in
        outcome.withLock { $0 = result }
        semaphore.signal()
      }
    } catch {
      if leading { read.release() }
      throw error
    }
    let deadline = seconds.map { DispatchTime.now() + $0 }
    let done = {
      outcome.withLock { $0 != nil } || deadline.map { DispatchTime.now() >= $0 } == true
    }
    if leading {
      read.disarm()
      // A peer that has sent nothing for a spin window is asleep: spin long enough to see it
      // wake and answer, or both sides would sleep through every call that follows.
      let quiet = Spin.elapsed(since: read.lastFrame) >= spinWindow
      let window = quiet ? max(spinWindow, Spin.wakeWindow) : spinWindow
      _ = pump(until: done, waitingSince: Spin.now(), window: window, blocking: false)
      read.release()
    } else {
      lead(until: done)
    }
    if let deadline, let seconds {
      if semaphore.wait(timeout: deadline) == .timedOut {
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

  /// Reads frames on the calling thread until `done()`, if the read side frees up within the
  /// spin window and reading has started; returns when `done()`, or when no frame came for the
  /// spin window, without blocking.
  private func lead(until done: () -> Bool) {
    guard state.withLock({ $0.reading }) else { return }
    let started = Spin.now()
    while !done() {
      if read.tryAcquire(caller: true) {
        _ = pump(until: done, waitingSince: started, window: spinWindow, blocking: false)
        read.release()
        return
      }
      if Spin.elapsed(since: started) >= spinWindow { return }
      Spin.pause()
    }
  }

  /// A blocking call on the reader thread: reads and answers frames until its own answer
  /// arrives (nothing else would read it), unmarked in the takeover watch meanwhile (reading, it
  /// is not stuck). When another thread took over reading, it waits for that thread to deliver
  /// the answer. Not bounded in time: the caller that made the reader thread answer a request
  /// bounds the whole exchange.
  private func callOnReader(
    _ method: String, _ params: String, _ reader: UnsafeMutablePointer<ReaderThread>
  ) throws
    -> JSONValue
  {
    let outcome = Locked<Result<JSONValue, any Error>?>(nil)
    let answered = DispatchSemaphore(value: 0)
    try send(method, params, input: .never) { result in
      outcome.withLock { $0 = result }
      answered.signal()
    }
    let done = { outcome.withLock { $0 != nil } }
    guard takeover.end(reader.pointee.mark) else {
      reader.pointee.leave()
      answered.wait()
      return try result(of: outcome)
    }
    switch pump(until: done, waitingSince: Spin.now(), window: spinWindow, blocking: true) {
    case .takenOver:
      answered.wait()
    case .ended(let reason):
      reader.pointee.mark = takeover.begin()
      throw ConnectionClosed(reason: reason)
    case .paused:
      reader.pointee.mark = takeover.begin()
    }
    return try result(of: outcome)
  }

  /// The result a call's completion stored.
  private func result(of outcome: Locked<Result<JSONValue, any Error>?>) throws -> JSONValue {
    guard let result = outcome.withLock({ $0 }) else {
      throw ConnectionClosed(reason: "no outcome")
    }
    return try result.get()
  }

  /// Sends a notification: a message that gets no response.
  package func notify(_ method: String, _ params: Any? = [String: Any](), what: String? = nil)
    throws
  {
    let text = try Self.encode(params, method, what)
    if let ended = state.withLock({ $0.ended }) { throw ended }
    try write(RPCMessage.request(id: nil, method: method, params: text))
  }

  /// `params` as JSON text, or ``NotRepresentable`` naming them `what` (by default "parameters
  /// of 'method'").
  package static func encode(_ params: Any?, _ method: String, _ what: String?)
    throws(NotRepresentable) -> String
  {
    try WireValue.encode(params, what: what ?? "parameters of '\(method)'")
  }

  /// Registers `completion` under a new id and writes the request with `params` (JSON text);
  /// returns the id. A peer that closed its input has often exited too, after printing why (a
  /// line that is not a frame): when the write finds the peer's input closed, what arrived is
  /// read first (as `input` allows), and when the input ended the request fails with that end,
  /// as later ones do, not with the write's failure.
  @discardableResult
  private func send(
    _ method: String, _ text: String, input: InputAccess,
    completion: @escaping Completion
  ) throws -> Int {
    let registered = state.withLock { state -> Result<Int, any Error> in
      if let ended = state.ended { return .failure(ended) }
      let id = state.nextID
      state.nextID += 1
      state.inFlight[id] = completion
      return .success(id)
    }
    let id = try registered.get()
    var unsent = false
    do {
      try write(RPCMessage.request(id: id, method: method, params: text)) { error in
        if error.isBrokenPipe { readWhatArrived(input) }
        unsent = state.withLock { state in
          !state.endReported && state.inFlight.removeValue(forKey: id) != nil
        }
      }
    } catch {
      if unsent { throw ConnectionClosed(reason: "\(error)") }
    }
    return id
  }

  /// How long a request whose write found the peer's input closed waits for the thread reading
  /// to report how the peer's output ended, in nanoseconds. A peer that exited is seen in
  /// microseconds; one that closed its input and runs on is not, and the request then fails
  /// with the write's failure.
  private static let brokenPipeGrace: UInt64 = 100_000_000

  /// What a sender may do with the read side to look at the input.
  private enum InputAccess {
    /// It holds the read side (a synchronous caller that took it before sending).
    case held
    /// It may take the read side, waiting while another thread reads.
    case acquire
    /// It must not: the reader thread, which may hold it.
    case never
  }

  /// Reads and dispatches what has arrived, without waiting for more, so an input that ended
  /// is reported. Another thread reading meanwhile reports what it finds before it lets go; it
  /// is waited for at most ``brokenPipeGrace``, since a peer that closed its input may still
  /// be running, and that thread waiting for its output.
  private func readWhatArrived(_ access: InputAccess) {
    switch access {
    case .never: return
    case .held: break
    case .acquire:
      guard state.withLock({ $0.reading }) else { return }
      let giveUp = Spin.now() + Self.brokenPipeGrace
      while !read.tryAcquire(caller: true) {
        if state.withLock({ $0.endReported }) || Spin.now() > giveUp { return }
        sched_yield()
      }
    }
    _ = pump(until: { false }, waitingSince: nil, window: 0, blocking: false)
    if access == .acquire { read.release() }
  }

  /// Writes one frame. A peer that closed its input (`EPIPE`) can no longer be told anything,
  /// even when its output is still open: the connection ends then, as when the input ends
  /// (when the peer exited, the first of the two to be seen is reported; `ended` names the exit
  /// either way). `failed` runs first when the write fails.
  private func write(_ frame: [UInt8], failed: (FrameError) -> Void = { _ in }) throws(FrameError) {
    do {
      try writer.send(frame)
    } catch {
      failed(error)
      if error.isBrokenPipe { reportEnd(Self.endOfOutput) }
      throw error
    }
  }

  /// Ends the connection because the peer sent a message that parses but does not fit what it
  /// answers (a result of the wrong shape), which only the owner can tell: the peer is told
  /// (an error with a `null` id and code `-32600`, as for a message that does not parse) and the
  /// connection ends as then. Returns the reason `ended` gets: `malformed message: what`.
  package func broken(_ what: String) -> String {
    try? write(RPCMessage.error(id: .null, RPCError(RPCError.invalidRequest, what)))
    let reason = "malformed message: \(what)"
    reportEnd(reason)
    return reason
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

  /// The reader thread: whenever input arrives and no caller is reading, reads it (and what
  /// follows within the spin window, when it answered a request), until the input ends or
  /// another thread takes over. `holding`: it starts with the read side, taken over from a
  /// reader thread stuck in a request.
  private func readLoop(holding: Bool) {
    var holding = holding
    ReaderThread.reading(for: self) {
      while true {
        if !holding {
          read.waitForInput()
          // A caller holding the read side reads what came; its release arms the watch again.
          guard read.tryAcquire(caller: false) else { continue }
        }
        holding = false
        takeover.reading(self)
        let stop = pump(until: { false }, waitingSince: nil, window: spinWindow, blocking: false)
        if case .takenOver = stop {
          takeover.left()  // the read side is the new reader thread's
          return
        }
        takeover.idle()
        read.release()
        if case .ended = stop { return }
      }
    }
  }

  /// Why ``pump(until:waitingSince:window:blocking:)`` returned.
  private enum PumpStop {
    /// Done, or no frame came within the window: the holder may read again later.
    case paused
    /// The input ended, for this reason.
    case ended(String)
    /// Another thread took over reading while this one answered a request (see
    /// ``ReaderTakeover``): it must not touch the read side again.
    case takenOver
  }

  /// What ``dispatch(_:)`` did with a frame.
  private enum Dispatched {
    /// Not a request, or one answered on a worker.
    case elsewhere
    /// Answered a request on this thread.
    case here
    /// Answered a request on this thread, which another thread took over reading from meanwhile.
    case takenOver
    /// Not a JSON-RPC message: the peer broke the protocol, for this reason.
    case malformed(String)
  }

  /// Reads and dispatches frames until `done()`, on the thread holding the read side. A call
  /// waiting for its answer since `waiting` (a value of ``Spin/now()``) keeps polling for the
  /// spin window after that and after each frame; the reader thread (`waiting` nil) only after
  /// it answered a request itself, since the peer then often sends its next one at once.
  /// Past the window it returns, or, when `blocking`, waits in `poll`. Every whole frame read is
  /// dispatched before it returns, so none waits for the next holder, unless another thread
  /// took over reading meanwhile (which dispatches the rest).
  private func pump(
    until done: () -> Bool, waitingSince waiting: UInt64?, window: UInt64, blocking: Bool
  ) -> PumpStop {
    var lastFrame = waiting
    while true {
      if let reason = read.endReason { return .ended(reason) }
      do {
        while let body = try read.frames.buffered() {
          read.lastFrame = Spin.now()
          switch dispatch(body) {
          case .takenOver: return .takenOver
          case .malformed(let reason): return .ended(inputEnded(reason))
          case .here: lastFrame = read.lastFrame
          case .elsewhere: if waiting != nil { lastFrame = read.lastFrame }
          }
        }
        if done() { return .paused }
        let idle = lastFrame.map { Spin.elapsed(since: $0) >= window } ?? true
        switch try read.frames.fill(waiting: idle && blocking) {
        case .bytes: continue
        case .end: return .ended(inputEnded(Self.endOfInput))
        case .nothing:
          if idle { return .paused }
          Spin.pause()
        }
      } catch {
        return .ended(inputEnded("\(error)"))
      }
    }
  }

  /// Records why the input ended and, the first time, fails the connection with the error the
  /// owner makes of it (on a thread of its own: the host waits there for the child's exit).
  private func inputEnded(_ reason: String) -> String {
    if read.endReason == nil { read.endReason = reason }
    reportEnd(reason)
    return read.endReason ?? reason
  }

  /// Fails the connection, the first time an end is seen once reading began, with the error
  /// the owner makes of `reason`. `ended` runs on a thread of its own, which it may block (the
  /// host waits there for the child's exit status): not on Swift's pool, which synchronous
  /// callers waiting for this very end may hold, nor on the reader or a writer.
  private func reportEnd(_ reason: String) {
    let first = state.withLock { state -> Bool in
      guard state.reading, !state.endReported else { return false }
      state.endReported = true
      return true
    }
    guard first else { return }
    let ended = handlers.ended
    DetachedThread.start(name: "apiary.rpc-end") { self.end(with: ended(reason)) }
  }

  /// Acts on one frame: a response completes its request, a request or notification runs the
  /// handler (inline ones on the reader thread only), anything else ends the connection.
  /// Holder of the read side only.
  private func dispatch(_ body: [UInt8]) -> Dispatched {
    let message: RPCMessage
    do {
      message = try RPCMessage(body)
    } catch {
      // Told to the peer, as JSON-RPC asks; but the answer a call waits for may be the frame
      // that did not parse, so the connection ends and every call in flight fails at once.
      try? write(RPCMessage.error(id: .null, error))
      return .malformed("malformed message: \(error.message)")
    }
    let handler = handlers.handler
    switch message {
    case .response(let id, let outcome):
      let completion = state.withLock { $0.inFlight.removeValue(forKey: id) }
      completion?(outcome.mapError { $0 })
    case .request(let id, let method, let params):
      if let reader = ReaderThread.current(for: self), handlers.inline(method) {
        return answerInline(id, method, params, handler, reader)
      }
      Self.onThreadOfItsOwn { [self] in _ = answer(id, method, params, handler) }
    case .notification(let method, let params):
      Self.onThreadOfItsOwn { _ = try? handler(method, params) }
    }
    return .elsewhere
  }

  /// Runs a handler on a Dispatch thread at once, however many handlers hold theirs: a serial
  /// queue of its own is served by a thread Dispatch adds when every other is busy. On the
  /// global queue, handlers that blocked all of its threads (one per processor; a handler waits
  /// in ``awaitBlocking(_:)`` for a task that needs one of them too) held the next request —
  /// and those tasks — until Dispatch's monitor added a thread, about a second later: each
  /// concurrent event to a process-placed module took a second.
  private static func onThreadOfItsOwn(_ work: @escaping @Sendable () -> Void) {
    DispatchQueue(label: "apiary.rpc-handler").async(execute: work)
  }

  /// Answers a request on the reader thread, marked in the takeover watch while its handler
  /// runs (a request that throws ``HandOff`` moves to a worker). The answer is written before
  /// the mark is looked at: a thread taken over from still answers, then stops reading.
  private func answerInline(
    _ id: JSONValue, _ method: String, _ params: JSONValue, _ handler: @escaping Handler,
    _ reader: UnsafeMutablePointer<ReaderThread>
  ) -> Dispatched {
    reader.pointee.mark = takeover.begin()
    let answered = answer(id, method, params, handler)
    let leading = reader.pointee.isLeading && takeover.end(reader.pointee.mark)
    if !answered {
      Self.onThreadOfItsOwn { [self] in _ = answer(id, method, params, handler) }
    }
    guard leading else {
      reader.pointee.leave()
      return .takenOver
    }
    return answered ? .here : .elsewhere
  }

  /// Runs `handler` for a request and writes its answer; false when it threw ``HandOff``
  /// (nothing written: answer it on a worker).
  private func answer(
    _ id: JSONValue, _ method: String, _ params: JSONValue, _ handler: Handler
  ) -> Bool {
    let reply: [UInt8]
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
    try? write(reply)
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
