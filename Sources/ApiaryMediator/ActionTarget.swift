import ApiarySupport

/// What the mediator needs of a target: its actions by name and its not-found handler. Plugins
/// implement ``Target`` (in the kernel layer), which adds how the kernel creates it.
///
/// ```swift
/// final class EchoTarget: Target {
///   init(context: ModuleContext) {}
///   static let actions: ActionTable<EchoTarget> = ["echo": .sync { _, params in params.values }]
/// }
/// ```
public protocol ActionTarget: AnyObject, Sendable {
  /// The actions this target implements, by name. Every action the manifest declares must be here.
  static var actions: ActionTable<Self> { get }
  /// Handles a call to an action this target does not have; `.unhandled` (the default) passes the
  /// call on to the application's fallback.
  func notFound(_ call: ActionCall) throws -> NotFoundResult
}

extension ActionTarget {
  public func notFound(_ call: ActionCall) throws -> NotFoundResult { .unhandled }
}

/// Creates targets for the mediator. The kernel implements it with the owning module's context,
/// so the mediator never sees a `ModuleContext`.
package protocol TargetMaker: Sendable {
  /// A function that creates an instance of `type`, which `catalog` has under `typeName`, or
  /// nil when `type` cannot be created this way (it is not a ``Target``).
  func maker(for type: any ActionTarget.Type, named typeName: String, in catalog: TypeCatalog)
    -> (@Sendable () throws -> any ActionTarget)?
}

/// A target type as a plugin's exports hold it, with its ``ActionTarget`` conformance (see
/// ``TypeCatalog/register(_:as:knownAs:)``).
package struct KnownActionTarget: Sendable {
  package let type: any ActionTarget.Type

  package init(type: any ActionTarget.Type) { self.type = type }
}
