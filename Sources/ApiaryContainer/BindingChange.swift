/// A change to the bindings of an observed key, as modules load, fail and unload (OSGi's
/// service tracker): a provider became visible, or stopped being visible.
///
/// ```swift
/// let token = container.observe((any Exporter).self) { change in
///   print(change.kind == .added ? "new exporter from" : "exporter gone from",
///     change.owner ?? "the application")
/// }
/// container.removeObserver(token)
/// ```
public struct BindingChange: Sendable, Hashable, CustomStringConvertible {
  public enum Kind: Sendable, Hashable {
    /// A binding became visible: registered, or brought back when what hid it was removed.
    case added
    /// A binding stopped being visible: removed, or hidden by an override.
    case removed
  }

  public let kind: Kind
  /// The observed key.
  public let key: ServiceKey
  /// The module that registered the binding, or nil for the application.
  package let owner: String?
  /// Its rank, when registered as one of several ranked providers.
  package let rank: Int?

  public var description: String {
    "\(kind == .added ? "added" : "removed") \(key) of \(owner.map { "module '\($0)'" } ?? "the application")"
      + (rank.map { ", rank \($0)" } ?? "")
  }
}

/// Identifies an observer installed with ``Container/observe(_:name:_:)``.
public struct ObservationToken: Sendable, Hashable {
  let id: Int
}
