/// The kernel's modules by name: each one's state and, while it is dormant, the ``Wake`` its
/// placeholders pull (which holds its manifest). One table, so putting a module to sleep is one
/// dictionary write, not one for its state and one for its wake.
///
/// ```swift
/// var modules = ModuleTable()
/// modules["search"] = .planned
/// modules.sleep("search", wake)  // modules["search"] == .dormant
/// modules[wake: "search"] = nil  // waking: the state stays until the wake-up ends
/// ```
struct ModuleTable {
  private var slots: [String: Slot] = [:]

  private struct Slot {
    var state: ModuleState
    var wake: Wake? = nil
  }

  mutating func reserveCapacity(_ count: Int) { slots.reserveCapacity(count) }

  /// A module's state; nil when no module has that name. Setting nil forgets the module.
  subscript(name: String) -> ModuleState? {
    get { slots[name]?.state }
    set {
      if let newValue {
        slots[name, default: Slot(state: newValue)].state = newValue
      } else {
        slots[name] = nil
      }
    }
  }

  /// The wake of a dormant module not yet woken, removed, or failed.
  subscript(wake name: String) -> Wake? {
    get { slots[name]?.wake }
    set { slots[name]?.wake = newValue }
  }

  /// Marks `name` dormant, woken by `wake`.
  mutating func sleep(_ name: String, _ wake: Wake) {
    slots[name] = Slot(state: .dormant, wake: wake)
  }
}
