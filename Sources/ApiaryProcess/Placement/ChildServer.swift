import ApiaryContainer
import ApiaryKernel
import ApiaryLifecycle
import ApiaryManifest
import ApiaryMediator
import ApiarySupport

/// The child's side of process placement (`apiary child`): boots one module in a kernel of its
/// own and serves the host's requests over the wire protocol, step by step as the host's hooks
/// ask (`setUp`, `start`, `ready`, `tearDown`). Calls its module makes to targets the child does
/// not have, and events the host's modules handle, go back to the host.
///
/// The child's kernel holds the module and ``ChildPhases``, a module that runs first in every
/// phase and holds the boot at each phase until the host asks for it. Its target `apiary-host`
/// is the application's fallback, so calls that find no target here are forwarded to the host.
///
/// ```swift
/// let server = try ChildServer(application: app, module: manifest, catalog: catalog)
/// exit(await server.serve(reading: 0, writing: wire))
/// ```
package final class ChildServer: Sendable {
  static let hostName = "apiary-host"

  let kernel: Kernel
  let module: String
  let session: ChildSession
  let service: CallService

  package init(application: ApplicationManifest, module: ModuleManifest, catalog: TypeCatalog)
    throws
  {
    var application = application
    application.fallback = ActionReference(target: Self.hostName, action: "forward")
    var placed = module
    placed.placement = .host
    placed.dependencies = []  // the host's modules; the host started them already
    placed.isOptional = false
    placed.command = nil
    catalog.register(ChildPhases.self)
    catalog.register(HostForwarder.self)
    let phases = ModuleManifest(
      name: Self.hostName, type: _typeName(ChildPhases.self, qualified: true), level: .basic,
      priority: Int.max, startTimeout: 366 * 86_400,
      targets: [
        TargetManifest(
          name: Self.hostName, type: _typeName(HostForwarder.self, qualified: true),
          actions: [
            ActionManifest(
              name: "forward", isRemote: true,
              parameters: [
                ParameterManifest(name: "target", kind: .string),
                ParameterManifest(name: "action", kind: .string),
                ParameterManifest(name: "params", kind: .any),
              ], timeout: 366 * 86_400)
          ])
      ])
    kernel = try Kernel(application: application, modules: [phases, placed], catalog: catalog)
    self.module = module.name
    service = CallService(mediator: kernel.mediator, events: kernel.events)
    session = ChildSession()
    let session = self.session
    try kernel.container.register(ChildSession.self, scope: .singleton) { _ in session }
  }

  /// Serves until the host closes the child's standard input; returns the exit status.
  package func serve(reading: Int32, writing: Int32) async -> Int32 {
    let connection = RPCConnection(reading: reading, writing: writing)
    session.connection.withLock { $0 = connection }
    let ended = Checkpoints()
    connection.start(
      handler: { [self] method, params in try handle(method, params) },
      // Calls answer on the reader thread (an async action moves to a worker; another thread
      // takes over reading from one stuck in a synchronous action); lifecycle requests wait
      // for the boot, which may call the host, so they run on workers.
      inline: { $0 == "perform" || $0 == "ping" },
      ended: { [session] reason in
        // The host closing the input is the normal end; anything else broke the connection.
        if reason != RPCConnection.endOfInput {
          session.failed.withLock { $0 = true }
          StandardError.print("error: the connection to the host broke: \(reason)")
        }
        // A boot the host will never ask to go on (its input ended between `setUp` and
        // `ready`) is held in a phase: let it fail there, so the shutdown need not wait for it.
        session.closing.withLock { $0 = true }
        session.permission.fail(ConnectionClosed(reason: reason))
        ended.pass(1)
        return ConnectionClosed(reason: reason)
      })
    try? await ended.reached(1)
    await kernel.shutdown()
    return session.failed.withLock { $0 } ? 1 : 0
  }

  private func handle(_ method: String, _ params: JSONValue) throws -> (any Sendable)? {
    let (kernel, session, module) = (self.kernel, self.session, self.module)
    guard method == "initialize" || session.initialized.withLock({ $0 }) else {
      throw RPCError(
        RPCError.invalidRequest,
        "'\(method)' before 'initialize': the host's first request must be 'initialize'")
    }
    switch method {
    case "initialize":
      let handshake = ProcessHost.handshake
      try handshake.check(params)
      session.initialized.withLock { $0 = true }
      return handshake.message(module: module, pid: getpidValue())
    case "setUp":
      Task {
        do {
          try await kernel.boot()
          session.progress.pass(3)
        } catch {
          // Not when the boot failed because the host's input ended: that is the normal end.
          if !session.closing.withLock({ $0 }) { session.failed.withLock { $0 = true } }
          // What the hook threw: the host names the module and the phase itself.
          session.progress.fail((error as? KernelError)?.hookError ?? error)
        }
      }
      try awaitBlocking { try await session.progress.reached(1) }
      let events = kernel.events.subscriptions.filter { $0.owners.contains(module) }.map(\.event)
      return ["events": events]
    case "start":
      let names = params["events"]?.arrayValue?.compactMap(\.stringValue) ?? []
      session.forwardEvents(names, from: kernel.events)
      session.permission.pass(1)
      try awaitBlocking { try await session.progress.reached(2) }
      return [String: Int]()
    case "ready":
      session.permission.pass(2)
      try awaitBlocking { try await session.progress.reached(3) }
      return [String: Int]()
    case "tearDown":
      try awaitBlocking { await kernel.shutdown() }
      return [String: Int]()
    default:
      guard let answer = try service.answer(method, params) else {
        throw RPCError(RPCError.methodNotFound, "no method '\(method)'")
      }
      return answer
    }
  }
}

/// What the child's kernel modules share with the server: the connection, the boot's progress
/// (1 set up, 2 started, 3 ready) and the host's permissions (1 start, 2 ready), whether the
/// host's `initialize` was accepted, and whether the connection is ending.
final class ChildSession: Sendable {
  let connection = Locked<RPCConnection?>(nil)
  let progress = Checkpoints()
  let permission = Checkpoints()
  let failed = Locked(false)
  let initialized = Locked(false)
  let closing = Locked(false)

  /// Subscribes to `names` in the child: events the child's modules post go to the host.
  func forwardEvents(_ names: [String], from events: EventBus) {
    for name in names {
      events.subscribe(name) { [self] event in
        // Posted by the host (through the server): it came from there.
        guard event.sender != nil, let connection = connection.withLock({ $0 }) else {
          return .ignored
        }
        let report = try await connection.call(
          "event", ["name": event.name, "payload": event.payload],
          what: "the payload of event '\(event.name)'")
        return report["handledBy"]?.arrayValue?.isEmpty == false ? .handled : .ignored
      }
    }
  }

  func call(_ method: String, _ params: [String: any Sendable], what: String) throws -> (
    any Sendable
  )? {
    guard let connection = connection.withLock({ $0 }) else {
      throw ConnectionClosed(reason: "not connected to the host")
    }
    return try connection.callBlocking(method, params, what: what).plainValue
  }
}

/// Runs first in every phase of the child's kernel and holds the boot there until the host's
/// hook asks for the next phase.
final class ChildPhases: Module {
  init() {}

  func start(_ context: ModuleContext) async throws {
    let session = try context.container.resolve(ChildSession.self)
    session.progress.pass(1)  // every module is set up
    try await session.permission.reached(1)
  }

  func ready(_ context: ModuleContext) async throws {
    let session = try context.container.resolve(ChildSession.self)
    session.progress.pass(2)  // every module has started
    try await session.permission.reached(2)
  }
}

/// The child application's fallback: a call to a target the child does not have goes to the
/// host as a `perform`, with the URL when it came by URL (the host applies its URL policy).
final class HostForwarder: Target {
  let session: ChildSession

  init(context: ModuleContext) throws {
    session = try context.container.resolve(ChildSession.self)
  }

  static let actions: ActionTable<HostForwarder> = [
    "forward": .sync { forwarder, params in
      let target = try params.string("target")
      let action = try params.string("action")
      let empty: [String: any Sendable] = [:]
      var message: [String: any Sendable] = ["target": target, "action": action, "params": empty]
      if case .remote(let url) = params.origin {
        message["url"] = url
      } else {
        message["params"] = params["params"] as? [String: any Sendable] ?? [:]
      }
      return try forwarder.session.call(
        "perform", message, what: "parameters of \(target).\(action)")
    }
  ]
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

private func getpidValue() -> Int32 { getpid() }
