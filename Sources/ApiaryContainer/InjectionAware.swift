/// A hook called after the container has filled an object's ``Injected`` properties
/// (objection's `awakeFromObjection`).
///
/// ```swift
/// final class NotesView: InjectionAware {
///   @Injected var store: any NoteStore
///   func didInject(_ resolver: Resolver) throws { try store.warmUp() }
/// }
/// ```
public protocol InjectionAware: AnyObject {
  func didInject(_ resolver: Resolver) throws
}
