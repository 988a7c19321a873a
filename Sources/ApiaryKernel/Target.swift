/// A mediator target: a final class a module exposes so other modules can call its actions by name
/// (CTMediator's `Target_X`), declared in the module manifest's `targets` section.
///
/// The mediator creates targets lazily with `init(context:)`, checks each call's parameters
/// against the manifest, then calls the action's closure from ``actions``.
///
/// ```swift
/// final class NotesTarget: Target {
///   let store: NoteStore
///   init(context: ModuleContext) throws {
///     store = NoteStore(directory: try context.config.string("directory"))
///   }
///
///   static let actions: ActionTable<NotesTarget> = [
///     "create": .sync { target, params in try target.store.create(params.string("title")) },
///     "list": .async { target, _ in await target.store.all() },
///   ]
/// }
/// ```
public protocol Target: AnyObject, Sendable {
  /// Creates the target when a call first needs it (or on every call when it is not cached).
  init(context: ModuleContext) throws
  /// The actions this target implements, by name. Every action the manifest declares must be here.
  static var actions: ActionTable<Self> { get }
  /// Handles a call to an action this target does not have; `.unhandled` (the default) passes the
  /// call on to the application's fallback.
  func notFound(_ call: ActionCall) throws -> NotFoundResult
}

extension Target {
  public func notFound(_ call: ActionCall) throws -> NotFoundResult { .unhandled }
}
