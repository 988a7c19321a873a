import ApiaryContainer
import ApiaryKernel
import ApiarySupport

/// A stand-in for a service, bound in place of whatever a module binds for the same type and
/// name. ``TestApplication`` binds its fakes after every module's `setUp` and before any
/// `start`, so modules that resolve their services in `start`, in actions or in event handlers
/// get the fake. A service resolved during `setUp` is the real one.
///
/// ```swift
/// let app = try TestApplication(
///   manifest: greeterManifest, fakes: [Fake((any Greeting).self) { _ in Ahoy() }])
/// ```
public struct Fake: Sendable {
  let bind: @Sendable (Container) throws(ContainerError) -> Void

  /// Binds `type` (and `name`) to `factory`, replacing any binding of that key.
  public init<T: Sendable>(
    _ type: T.Type, name: String? = nil, scope: Scope = .singleton,
    factory: @escaping @Sendable (Resolver) throws -> T
  ) {
    bind = { container throws(ContainerError) in
      try container.register(type, name: name, scope: scope, override: true, factory: factory)
    }
  }
}

/// The fakes of one ``TestApplication``, bound in the container for ``FakeServicesModule``.
final class FakeServices: Sendable {
  let fakes: [Fake]
  init(_ fakes: [Fake]) { self.fakes = fakes }
}

/// The module a ``TestApplication`` adds when it has fakes. It boots last (lowest priority, no
/// dependencies), so its `setUp` runs after every other module's and replaces their bindings.
final class FakeServicesModule: Module {
  static let name = "apiary-testing-fakes"
  static let typeName = "ApiaryTesting.FakeServicesModule"

  init() {}

  func setUp(_ context: ModuleContext) throws {
    for fake in try context.container.resolve(FakeServices.self).fakes {
      try fake.bind(context.container)
    }
  }
}
