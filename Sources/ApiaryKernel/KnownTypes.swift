import ApiaryMediator
import ApiarySupport

/// A module type as a plugin's exports hold it, with its ``Module`` conformance.
struct KnownModule: Sendable {
  let type: any Module.Type
}

/// A target type as a plugin's exports hold it, with its ``Target`` conformance.
struct KnownTarget: Sendable {
  let type: any Target.Type
}

/// Module and target types registered with the conformances their plugin's exports prove, so
/// boot does not ask the runtime about a plugin's types (see
/// ``TypeCatalog/register(_:as:knownAs:)``).
///
/// ```swift
/// catalog.register(module: NotesModule.self, as: "NotesPlugin.NotesModule")
/// catalog.moduleType(named: "NotesPlugin.NotesModule")  // NotesModule.self, no runtime check
/// ```
extension TypeCatalog {
  /// Registers a module type under `name`, known to be a ``Module``.
  package func register(module type: any Module.Type, as name: String) {
    register(type, as: name, knownAs: [KnownModule(type: type)])
  }

  /// Registers a target type under `name`, known to be a ``Target`` and an ``ActionTarget``.
  package func register(target type: any Target.Type, as name: String) {
    register(
      type, as: name,
      knownAs: [KnownTarget(type: type), KnownActionTarget(type: Self.actionTarget(type))])
  }

  /// The module type named `name`, or nil when there is none or it is not a ``Module``.
  package func moduleType(named name: String) -> (any Module.Type)? {
    guard let found = lookup(name, knownAs: KnownModule.self) else { return nil }
    return found.known?.type ?? found.type as? any Module.Type
  }

  /// The target type named `name`, or nil when there is none or it is not a ``Target``.
  package func targetType(named name: String) -> (any Target.Type)? {
    guard let found = lookup(name, knownAs: KnownTarget.self) else { return nil }
    return found.known?.type ?? found.type as? any Target.Type
  }

  /// `type`, found under `name`, as a ``Target``, or nil when it is not one: as registered when
  /// `name` still names `type`, else asked of the runtime (the result is `type` itself either
  /// way, which the mediator relies on).
  package func targetType(_ type: any ActionTarget.Type, named name: String) -> (
    any Target.Type
  )? {
    guard let target = targetType(named: name), ObjectIdentifier(target) == ObjectIdentifier(type)
    else { return type as? any Target.Type }
    return target
  }

  /// `type` as an ``ActionTarget``, through its ``Target`` conformance: converting the
  /// existential (`as any ActionTarget.Type`) would look the conformance up at run time.
  private static func actionTarget<T: Target>(_ type: T.Type) -> any ActionTarget.Type { type }
}
