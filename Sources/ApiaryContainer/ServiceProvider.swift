/// An object that creates a service, for creation logic that keeps state (objection's
/// providers). Bind it with ``Container/register(_:name:scope:eager:override:rank:provider:)``.
///
/// ```swift
/// final class ConnectionPool: ServiceProvider {
///   let next = Atomic<Int>(0)
///   func provide(_ resolver: Resolver) throws -> Connection {
///     Connection(id: next.wrappingAdd(1, ordering: .relaxed).newValue)
///   }
/// }
/// try container.register(Connection.self, provider: ConnectionPool())
/// ```
public protocol ServiceProvider<Service>: Sendable {
  associatedtype Service
  func provide(_ resolver: Resolver) throws -> Service
}
