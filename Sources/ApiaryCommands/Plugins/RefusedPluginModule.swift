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

  /// `module` with no services or targets, implemented by this type, carrying `reasons`.
  static func standIn(for module: ModuleManifest, reasons: [String]) -> ModuleManifest {
    var standIn = module
    standIn.type = _typeName(RefusedPluginModule.self, qualified: true)
    standIn.services = []
    standIn.targets = []
    standIn.plugin = nil
    standIn.config = ["refusedBecause": .array(reasons.map { .string($0) })]
    return standIn
  }
}
