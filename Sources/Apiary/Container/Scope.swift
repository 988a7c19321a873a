/// How long a resolved instance lives.
public enum Scope: String, Sendable, Hashable, CaseIterable {
  /// A new instance on every resolve.
  case transient
  /// One instance per container, created on first resolve (or at boot when eager).
  case singleton
  /// Shared while someone holds a strong reference; recreated after it is released.
  case weak
  /// One instance per top-level resolve: every dependency in one object graph shares it.
  case graph
}
