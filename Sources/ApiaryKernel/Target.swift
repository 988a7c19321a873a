import ApiaryManifest
import ApiaryMediator
import ApiarySupport

/// A mediator target: a final class a module exposes so other modules can call its actions by name
/// (CTMediator's `Target_X`), declared in the module manifest's `targets` section.
///
/// The mediator creates targets lazily with `init(context:)`, checks each call's parameters
/// against the manifest, then calls the action's closure from ``ActionTarget/actions``.
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
public protocol Target: ActionTarget {
  /// Creates the target when a call first needs it (or on every call when it is not cached).
  init(context: ModuleContext) throws
}

/// Creates a module's targets with its context, for the mediator.
struct ContextTargetMaker: TargetMaker {
  let context: ModuleContext

  func maker(for type: any ActionTarget.Type, named typeName: String, in catalog: TypeCatalog)
    -> (@Sendable () throws -> any ActionTarget)?
  {
    guard let target = catalog.targetType(type, named: typeName) else { return nil }
    return maker(target)
  }

  private func maker<T: Target>(_: T.Type) -> @Sendable () throws -> any ActionTarget {
    let context = context
    return { try T(context: context) }
  }
}

extension Mediator {
  /// Adds a module's declared targets, each created lazily with `context`; see
  /// ``addTargets(_:owner:moduleType:maker:)``.
  package func addTargets(_ targets: [TargetManifest], owner: String, context: ModuleContext)
    throws(MediatorError)
  {
    try addTargets(
      targets, owner: owner, moduleType: context.manifest.type,
      maker: ContextTargetMaker(context: context))
  }
}

/// Creates a dormant module's targets: creating one wakes the module first, so the first call
/// to the target is its trigger, and then uses the context the module woke with. Once the
/// module runs, the wake costs one atomic load.
struct WakingTargetMaker: TargetMaker {
  let wake: Wake
  let target: String

  func maker(for type: any ActionTarget.Type, named typeName: String, in catalog: TypeCatalog)
    -> (@Sendable () throws -> any ActionTarget)?
  {
    guard let target = catalog.targetType(type, named: typeName) else { return nil }
    return maker(target)
  }

  private func maker<T: Target>(_: T.Type) -> @Sendable () throws -> any ActionTarget {
    let (wake, trigger) = (wake, ActivationTrigger.target(target))
    return {
      try wake.now(trigger)
      guard let context = wake.context else { throw Asleep() }
      return try T(context: context)
    }
  }

  /// Never thrown in practice: `now` returns only once the module runs.
  private struct Asleep: Error, CustomStringConvertible {
    var description: String { "the module is not running" }
  }
}
