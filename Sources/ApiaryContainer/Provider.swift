/// Resolves a service on every `get()`: a new instance for transient bindings, the shared one
/// for singletons.
///
/// ```swift
/// let makeRequest: Provider<Request> = container.provider()
/// let first = try makeRequest.get()
/// let second = try makeRequest.get()  // another instance when Request is transient
/// ```
public struct Provider<T>: Sendable {
  private let resolver: Resolver
  private let name: String?

  init(resolver: Resolver, name: String?) {
    self.resolver = resolver
    self.name = name
  }

  public func get() throws(ContainerError) -> T {
    try resolver.resolve(T.self, name: name)
  }
}
