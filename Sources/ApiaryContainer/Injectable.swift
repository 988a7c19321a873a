/// A class the container can create by itself, as manifest `services` entries require: it gets
/// its dependencies from the resolver (constructor injection).
///
/// ```swift
/// final class FileNoteStore: NoteStore, Injectable {
///   let log: any Logger
///   init(resolver: Resolver) throws {
///     log = try resolver.resolve()
///   }
/// }
/// ```
///
/// After `init(resolver:)`, properties marked ``Injected`` are filled and
/// ``InjectionAware/didInject(_:)`` runs.
public protocol Injectable: AnyObject {
  init(resolver: Resolver) throws
}
