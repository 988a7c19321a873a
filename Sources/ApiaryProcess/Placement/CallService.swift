import ApiaryLifecycle
import ApiaryManifest
import ApiaryMediator

/// The requests both sides answer with a mediator and an event bus: `perform`, `event` and
/// `ping` (`docs/wire-protocol.md`). The host answers its child with the stand-in module's
/// mediator and bus; the child answers the host with its kernel's.
///
/// A call runs with the synchronous `perform` on the handler's thread (no hop) unless its
/// action is `async`; then it is awaited. The caller's side bounds it by the action's timeout.
struct CallService: Sendable {
  let mediator: Mediator
  let events: EventBus

  /// The answer to `method`, or nil when it is not one of these.
  func answer(_ method: String, _ params: JSONValue) throws -> (any Sendable)?? {
    switch method {
    case "perform":
      guard let target = params["target"]?.stringValue,
        let action = params["action"]?.stringValue
      else { throw RPCError(RPCError.invalidParams, "perform needs 'target' and 'action'") }
      let values = Self.values(params["params"])
      return .some(try perform(target, action, values, url: params["url"]?.stringValue))
    case "event":
      guard let name = params["name"]?.stringValue else {
        throw RPCError(RPCError.invalidParams, "event needs 'name'")
      }
      let payload = Self.values(params["payload"])
      let events = self.events
      let report = try awaitBlocking { EventReport(await events.post(name, payload: payload)) }
      return .some(report.wire)
    case "ping":
      return .some([String: Int]())
    default:
      return nil
    }
  }

  /// An object's members as plain values (empty for anything else): what
  /// `value?.plainValue as? [String: any Sendable] ?? [:]` gives, each member boxed as that
  /// cast boxes it, without the cast's conversion of every element through the runtime.
  static func values(_ value: JSONValue?) -> [String: any Sendable] {
    guard case .object(let members)? = value else { return [:] }
    var values = [String: any Sendable](minimumCapacity: members.count)
    for (key, member) in members { values[key] = member.plainValue as any Sendable }
    return values
  }

  /// One call: by URL when `url` is given (the URL policy applies again), else by name.
  private func perform(
    _ target: String, _ action: String, _ values: [String: any Sendable], url: String?
  ) throws -> (any Sendable)? {
    let mediator = self.mediator
    do {
      do {
        if let url { return try mediator.open(url) }
        return try mediator.perform(target: target, action: action, params: values)
      } catch let error as MediatorError where error.code == .asyncActionInSyncCall {
        return try awaitBlocking {
          if let url { return try await mediator.open(url) }
          return try await mediator.perform(target: target, action: action, params: values)
        }
      }
    } catch let error as MediatorError {
      throw RPCError(RPCError.refused, "\(error)")
    }
  }
}

/// A dispatch report as it crosses the wire.
struct EventReport: Sendable {
  let handledBy: [String]
  let ignoredBy: [String]
  let failures: [[String: String]]

  init(_ report: DispatchReport) {
    handledBy = report.handledBy
    ignoredBy = report.ignoredBy
    failures = report.failures.map { ["module": $0.module, "message": "\($0.error)"] }
  }

  var wire: [String: any Sendable] {
    ["handledBy": handledBy, "ignoredBy": ignoredBy, "failures": failures]
  }
}
