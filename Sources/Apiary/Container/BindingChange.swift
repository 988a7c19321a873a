/// A change to the bindings of an observed key, as modules load, fail and unload (OSGi's
/// service tracker): a provider became visible, or stopped being visible.
///
/// ```swift
/// let token = container.observe((any Exporter).self) { change in
///   switch change {
///   case .added(let info): print("new exporter from", info.owner ?? "the application")
///   case .removed(let info): print("exporter gone:", info.key)
///   }
/// }
/// container.removeObserver(token)
/// ```
public enum BindingChange: Sendable, CustomStringConvertible {
  /// A binding became visible: registered, or brought back when what hid it was removed.
  case added(BindingInfo)
  /// A binding stopped being visible: removed, or hidden by an override.
  case removed(BindingInfo)

  public var info: BindingInfo {
    switch self {
    case .added(let info), .removed(let info): info
    }
  }

  public var description: String {
    switch self {
    case .added(let info): "added \(info)"
    case .removed(let info): "removed \(info)"
    }
  }
}

/// Identifies an observer installed with ``Container/observe(_:name:_:)``.
public struct ObservationToken: Sendable, Hashable {
  let id: Int
}
