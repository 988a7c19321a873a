/// Resolves a service on every `get()`: a new instance for transient bindings, the shared one
/// for singletons.
///
/// ```swift
/// let makeRequest: Provider<Request> = container.provider()
/// let first = try makeRequest.get()
/// let second = try makeRequest.get()  // another instance when Request is transient
/// ```
public struct Provider<T>: Sendable {
  private let resolve: @Sendable () throws(ContainerError) -> T

  init(_ resolve: @escaping @Sendable () throws(ContainerError) -> T) {
    self.resolve = resolve
  }

  public func get() throws(ContainerError) -> T {
    try resolve()
  }
}
