import ApiarySupport

/// The `.graph`-scoped instances of one top-level resolve, kept for the ``Lazy`` values made
/// during it, so they resolve in the graph they were made in.
@usableFromInline
final class ResolutionGraph: Sendable {
  private let stored = Locked<[ObjectIdentifier: SendableBox]>([:])

  init() {}

  func instances() -> [ObjectIdentifier: Any] {
    stored.withLock { $0.mapValues(\.value) }
  }

  /// Adds `instances`; an instance already saved for a binding wins.
  @usableFromInline
  func save(_ instances: [ObjectIdentifier: Any]) {
    stored.withLock { stored in
      for (id, value) in instances where stored[id] == nil { stored[id] = SendableBox(value) }
    }
  }

  /// `@unchecked Sendable`: a graph's instances are handed to whichever thread resolves in the
  /// graph, as the container hands any resolved instance; the box adds no sharing of its own.
  private struct SendableBox: @unchecked Sendable {
    let value: Any
    init(_ value: Any) { self.value = value }
  }
}
