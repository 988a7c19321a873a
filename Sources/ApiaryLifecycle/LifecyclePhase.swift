/// What the kernel was doing when it timed or reported something: one of the lifecycle hooks,
/// in the order the kernel calls them, or the dispatch of an event.
///
/// ```swift
/// let kernel = try Kernel(manifestsAt: "Manifests") { record in
///   if record.phase == .tearDown { print(record) }
/// }
/// ```
public enum LifecyclePhase: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case load, setUp, start, ready, tearDown
  /// Handlers of one custom event ran (the profiler's subject is the event name).
  case event
  /// A lazy module woke on its first trigger: its `setUp`, `start` and `ready`, timed together.
  case activate
  public var description: String { rawValue }
}
