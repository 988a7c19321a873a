/// A custom event: a name and a payload, posted through the ``EventBus``.
///
/// ```swift
/// let report = await context.events.post("note.saved", payload: ["id": note.id])
/// if report.handledBy.isEmpty { print("nobody indexed it") }
/// ```
public struct Event: Sendable {
  public let name: String
  public let payload: [String: any Sendable]
  /// The module that posted the event, or nil when the host posted it.
  public let sender: String?

  public init(name: String, payload: [String: any Sendable] = [:], sender: String? = nil) {
    self.name = name
    self.payload = payload
    self.sender = sender
  }
}

/// What a handler did with an event.
public enum EventOutcome: Sendable, Hashable {
  /// The handler acted on the event.
  case handled
  /// The handler looked at the event and left it alone.
  case ignored
}

/// The aggregate of one dispatch: who handled the event, who ignored it, who failed and why.
public struct DispatchReport: Sendable, CustomStringConvertible {
  package let event: String
  /// Modules whose handler returned `.handled`, in dispatch order.
  public var handledBy: [String] = []
  /// Modules whose handler returned `.ignored`, in dispatch order.
  package var ignoredBy: [String] = []
  /// Modules whose handler threw, with the error, in dispatch order.
  public var failures: [(module: String, error: any Error)] = []

  /// Whether at least one handler handled the event.
  package var wasHandled: Bool { !handledBy.isEmpty }

  /// Adds what `module`'s handler did with the event.
  package mutating func record(_ outcome: EventOutcome, of module: String) {
    switch outcome {
    case .handled: handledBy.append(module)
    case .ignored: ignoredBy.append(module)
    }
  }

  public var description: String {
    var parts = ["event '\(event)': handled by [\(handledBy.joined(separator: ", "))]"]
    if !ignoredBy.isEmpty { parts.append("ignored by [\(ignoredBy.joined(separator: ", "))]") }
    for failure in failures { parts.append("failed in \(failure.module): \(failure.error)") }
    return parts.joined(separator: "; ")
  }
}
