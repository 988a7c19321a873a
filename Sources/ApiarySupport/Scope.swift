/// How long a resolved instance lives.
///
/// ```swift
/// try container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
/// try container.register(Request.self, scope: .graph) { _ in Request() }
/// ```
public enum Scope: String, Sendable, Hashable, CaseIterable {
  /// A new instance on every resolve.
  case transient
  /// One instance per container that holds the binding, created on first resolve (or at boot
  /// when eager), shared with child containers and released when its owner is unloaded.
  case singleton
  /// Shared while someone holds a strong reference; recreated after it is released. Only class
  /// instances can be held weakly: a value type is never shared.
  case weak
  /// One instance per top-level resolve: every dependency in one object graph shares it.
  case graph
}
