import ApiaryKernel
import ApiaryLifecycle
import ApiaryManifest
import ApiaryMediator
import ApiarySupport

/// Stands in the host for a module whose manifest says `"placement": "process"`: its hooks start
/// a child process (the manifest's `command`, which for a Swift plugin is `apiary child`) and
/// forward to it over the wire protocol (`docs/wire-protocol.md`), each bounded by the module's
/// `timeout`. Its targets are ``ProcessTarget``s; custom events cross both ways; calls the child
/// makes go through this module's mediator and event bus.
///
/// Supervision restarts a child through ``connect(child:context:)`` and reports its end
/// through ``childDidExit(_:context:)``.
public final class ProcessModule: Module {
  public init() {}

  public func setUp(_ context: ModuleContext) throws {
    guard let command = context.manifest.command, !command.isEmpty else {
      throw ProcessModuleError(
        module: context.name, pid: nil, reason: "placed in a process but has no command")
    }
    let child = try ChildLauncher.launch(command, module: context.name)
    do {
      try connect(child: child, context: context)
    } catch {
      child.terminate(grace: .seconds(1))
      throw error
    }
    supervise(child, context: context)
  }

  /// Starts the child's module. The kernel tears down only modules that started, so when this
  /// fails (or the kernel abandons it at the module's `timeout`) the child is ended here. A
  /// child that ends before its module started fails this hook and is not restarted; once it
  /// started, its restart policy applies.
  public func start(_ context: ModuleContext) async throws {
    do {
      try await startChild(context)
      await ProcessSupervision.moduleStarted(context.name, owner: context)
    } catch {
      await ProcessSupervision.release(context.name, owner: context)  // no crash from here on
      if let link = ProcessLink.of(context) {
        ProcessLink.set(nil, for: context)
        await link.close(grace: .manifestSeconds(max(1, context.manifest.startTimeout)))
      }
      throw error
    }
  }

  /// The child's `start`, told which custom events the host's modules handle.
  func startChild(_ context: ModuleContext) async throws {
    let link = try Self.link(context)
    let hostEvents = context.events.subscriptions
      .filter { $0.owners.contains { $0 != context.name } }.map(\.event)
    try await Self.hook(link, "start", ["events": hostEvents], context: context)
  }

  public func ready(_ context: ModuleContext) async throws {
    try await Self.hook(Self.link(context), "ready", context: context)
  }

  public func tearDown(_ context: ModuleContext) async throws {
    await ProcessSupervision.release(context.name, owner: context)  // no crash from here on
    guard let link = ProcessLink.of(context) else { return }
    defer { ProcessLink.set(nil, for: context) }
    let outcome = await Result { try await Self.hook(link, "tearDown", context: context) }
    await link.close(grace: .manifestSeconds(max(1, context.manifest.startTimeout)))
    _ = try outcome.get()
  }

  /// A lifecycle request to the child. The kernel cancels a hook that overruns the module's
  /// `timeout` and goes on without it; the child, stuck in that hook, is then ended at once
  /// (SIGTERM before the kernel goes on, no crash reported), or it would run on unsupervised,
  /// after the host too.
  private static func hook(
    _ link: ProcessLink, _ method: String, _ params: [String: any Sendable] = [:],
    context: ModuleContext
  ) async throws {
    _ = try await withTaskCancellationHandler {
      try await call(link, method, params)
    } onCancel: {
      ProcessSupervision.releaseAtOnce(context.name, owner: context)
      link.child.terminate(grace: .seconds(1))
    }
  }

  /// Connects to a started child: the handshake, then the child's `setUp`, then subscribes in
  /// the host to the events the child's modules handle. Blocks, bounded by the module's
  /// `timeout`.
  package func connect(child: any PlacedChild, context: ModuleContext) throws {
    let name = context.name
    let pid = child.pid
    let connection = RPCConnection(reading: child.output, writing: child.input)
    connection.start(
      handler: Self.handler(context),
      ended: { [weak connection] reason in
        // On the connection's thread for its end, which this may block. Its output ended or
        // broke, or it closed its input, so the child cannot take part again: one that broke
        // the protocol is ended at once, one that closed its output or its input and lives on
        // after the module's timeout then (so its supervisor sees it end and restarts it as its
        // policy says). Calls fail with why, and its supervisor is told why, before the child
        // is signalled: the signal the host sends is never the cause its end names.
        let ending = { (cause: String, failure: ProcessModuleError) in
          connection?.end(with: failure)
          ProcessSupervision.ending(name, owner: context, pid: pid, cause: cause)
        }
        let closed =
          switch reason {
          case RPCConnection.endOfInput: "output"
          case RPCConnection.endOfOutput: "input"
          default: String?.none
          }
        guard let closed else {
          StandardError.print(
            "apiary: module '\(name)' (pid \(pid)) broke the wire protocol: \(reason); ending it")
          let broke = Self.broke(name, pid, reason)
          ending("broke the wire protocol (\(reason))", broke)
          child.terminate(grace: .seconds(1))
          return broke
        }
        let grace = Duration.manifestSeconds(max(1, context.manifest.startTimeout))
        var overdue: ProcessModuleError?
        let ended = child.end(after: grace) {
          StandardError.print(
            "apiary: module '\(name)' (pid \(pid)) closed its standard \(closed) but did not exit "
              + "within \(grace); ending it")
          let cause = "closed its standard \(closed) but did not exit within \(grace)"
          let failure = ProcessModuleError(module: name, pid: pid, reason: "\(cause); ended")
          overdue = failure
          ending(cause, failure)
        }
        return overdue ?? ProcessModuleError(module: name, pid: pid, reason: ended)
      })
    let link = ProcessLink(module: name, child: child, connection: connection)
    var connected = false
    defer {  // a child that never connects reads end of input, and its descriptor is not kept
      if !connected { connection.closeOutput() }
    }
    let seconds = context.manifest.startTimeout
    let handshake = ProcessHost.handshake
    let answer = try Self.callBlocking(
      link, "initialize", handshake.message(module: name), seconds: seconds)
    do {
      try handshake.check(answer)
    } catch {
      throw ProcessModuleError(module: name, pid: pid, reason: "handshake refused: \(error)")
    }
    let setUp = try Self.callBlocking(link, "setUp", seconds: seconds)
    let events: [String]
    do {
      events = try Self.events(setUp)
    } catch {
      throw Self.broke(name, pid, connection.broken(error.message))
    }
    for event in events {
      context.events.subscribe(event) { event in
        guard event.sender != name else { return .ignored }  // it came from this child
        let report = try await Self.call(
          link, "event", ["name": event.name, "payload": event.payload],
          what: "the payload of event '\(event.name)'")
        if let failures = report["failures"]?.arrayValue, !failures.isEmpty {
          throw ChildCallError(
            module: name,
            RPCError(
              RPCError.failed,
              failures.map {
                "\($0["module"]?.stringValue ?? ""): \($0["message"]?.stringValue ?? "")"
              }
              .joined(separator: "; ")))
        }
        return report["handledBy"]?.arrayValue?.isEmpty == false ? .handled : .ignored
      }
    }
    ProcessLink.set(link, for: context)
    connected = true
  }

  /// What a child that broke the wire protocol fails with (the reason as the connection's end
  /// names it).
  private static func broke(_ module: String, _ pid: Int32, _ reason: String)
    -> ProcessModuleError
  {
    ProcessModuleError(
      module: module, pid: pid, reason: "broke the wire protocol (\(reason)); ended")
  }

  /// The events named by the result of the child's `setUp`: an object whose `events`, if
  /// present, is an array of strings; anything else is a malformed message.
  static func events(_ setUp: JSONValue) throws(RPCError) -> [String] {
    let needs = "the result of 'setUp' needs to be an object with \"events\": an array of strings"
    guard case .object(let members) = setUp else {
      throw RPCError(RPCError.invalidRequest, "\(needs), found \(setUp.kindName)")
    }
    guard let events = members["events"] else { return [] }
    guard case .array(let names) = events else {
      throw RPCError(RPCError.invalidRequest, "\(needs), found \(events.kindName)")
    }
    var texts: [String] = []
    for (index, name) in names.enumerated() {
      guard let text = name.stringValue else {
        throw RPCError(
          RPCError.invalidRequest, "\(needs), found \(name.kindName) at events[\(index)]")
      }
      texts.append(text)
    }
    return texts
  }

  /// The child ended: calls in flight and later ones fail with `description`. (Supervision
  /// decides what follows.)
  package func childDidExit(_ description: String, context: ModuleContext) {
    guard let link = ProcessLink.of(context) else { return }
    link.connection.end(
      with: ProcessModuleError(module: context.name, pid: link.child.pid, reason: description))
  }

  static func link(_ context: ModuleContext) throws -> ProcessLink {
    guard let link = ProcessLink.of(context) else {
      let status = ProcessSupervision.status(of: context.name)
      throw ProcessModuleError(
        module: context.name, pid: nil,
        reason: status.map { "its child process is \($0)" } ?? "no child process running")
    }
    return link
  }

  /// A request to the child; the child's error objects become ``ChildCallError``, a request
  /// that cannot be written (the child closed its input) a ``ProcessModuleError``.
  @discardableResult
  static func call(
    _ link: ProcessLink, _ method: String, _ params: [String: any Sendable] = [:],
    what: String? = nil
  ) async throws -> JSONValue {
    try await call(link, method, json: RPCConnection.encode(params, method, what))
  }

  /// ``call(_:_:_:what:)`` with parameters that are already JSON text; past `seconds` it
  /// throws ``CallTimedOut``.
  static func call(
    _ link: ProcessLink, _ method: String, json params: String, seconds: Double? = nil
  ) async throws -> JSONValue {
    do {
      return try await link.connection.call(method, json: params, seconds: seconds)
    } catch {
      throw failure(error, of: link)
    }
  }

  @discardableResult
  static func callBlocking(
    _ link: ProcessLink, _ method: String, _ params: [String: any Sendable] = [:],
    what: String? = nil, seconds: Double
  ) throws -> JSONValue {
    try callBlocking(
      link, method, json: RPCConnection.encode(params, method, what), seconds: seconds)
  }

  /// ``callBlocking(_:_:_:what:seconds:)`` with parameters that are already JSON text.
  static func callBlocking(
    _ link: ProcessLink, _ method: String, json params: String, seconds: Double
  )
    throws -> JSONValue
  {
    do {
      return try link.connection.callBlocking(method, json: params, seconds: seconds)
    } catch is CallTimedOut {
      throw ProcessModuleError(
        module: link.module, pid: link.child.pid,
        reason: "'\(method)' got no answer within \(seconds) s")
    } catch {
      throw failure(error, of: link)
    }
  }

  /// What a request's `error` means to the module's caller: the child's error object a
  /// ``ChildCallError``, a connection that closed (the child closed its input) a
  /// ``ProcessModuleError``; anything else as it is.
  static func failure(_ error: any Error, of link: ProcessLink) -> any Error {
    switch error {
    case let error as RPCError: ChildCallError(module: link.module, error)
    case let closed as ConnectionClosed:
      ProcessModuleError(module: link.module, pid: link.child.pid, reason: "\(closed)")
    default: error
    }
  }

  /// Serves the child's requests with this module's mediator and event bus.
  private static func handler(_ context: ModuleContext) -> RPCConnection.Handler {
    let service = CallService(mediator: context.mediator, events: context.events)
    return { method, params in
      guard let answer = try service.answer(method, params) else {
        throw RPCError(RPCError.methodNotFound, "no method '\(method)'")
      }
      return answer
    }
  }
}

extension Result where Failure == any Error {
  init(catching body: () async throws -> Success) async {
    do { self = .success(try await body()) } catch { self = .failure(error) }
  }
}
