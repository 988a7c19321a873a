import Apiary

/// Takes the place of an optional module whose plugin the load gate refused: it fails in
/// `setUp` with the gate's reasons, so the kernel marks it failed and skips its dependents,
/// like any optional module that fails. (Also the stand-in for declared module types when
/// plugins are only gated, not loaded.)
final class RefusedPluginModule: Module {
  struct Refusal: Error, CustomStringConvertible {
    let description: String
  }

  init() {}

  func setUp(_ context: ModuleContext) throws {
    let reasons = (try? context.config.strings("refusedBecause")) ?? []
    throw Refusal(description: "plugin refused: " + reasons.joined(separator: "; "))
  }

  /// `module` with no services or targets, implemented by this type, carrying `reasons` and the
  /// names of the targets it declared (``declaredTargets(of:)``). Eager, so it fails at boot
  /// and shows as failed, lazy or not.
  static func standIn(for module: ModuleManifest, reasons: [String]) -> ModuleManifest {
    var standIn = module
    standIn.type = _typeName(RefusedPluginModule.self, qualified: true)
    standIn.services = []
    standIn.targets = []
    standIn.plugin = nil
    standIn.activation = .eager
    standIn.activationEvents = []
    standIn.config = [
      "refusedBecause": .array(reasons.map { .string($0) }),
      "declaredTargets": .array(module.targets.map { .string($0.name) }),
    ]
    return standIn
  }

  /// Whether `module` is a refused module's stand-in (``standIn(for:reasons:)``).
  static func isStandIn(_ module: ModuleManifest) -> Bool {
    module.type == _typeName(RefusedPluginModule.self, qualified: true)
  }

  /// The modules of `plan` whose plugin was refused, for its table.
  static func names(in plan: BootPlan) -> [String] {
    plan.modules.filter(isStandIn).map(\.name)
  }

  /// The targets a refused module declared, so a call to one can say why it is not there.
  static func declaredTargets(of module: ModuleManifest) -> [String] {
    guard isStandIn(module) else { return [] }
    return module.config["declaredTargets"]?.arrayValue?.compactMap(\.stringValue) ?? []
  }
}
