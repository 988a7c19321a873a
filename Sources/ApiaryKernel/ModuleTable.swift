/// The kernel's modules by name: each one's state and, while it is dormant, the ``Wake`` its
/// placeholders pull (which holds its manifest). One slot per module, so putting a module to
/// sleep is one write, not one for its state and one for its wake.
///
/// The plan's modules have the slots of their places in the plan, so boot reaches a module by
/// its place without hashing its name; the name-to-slot table is the plan's own
/// (``BootPlan/positions``). Modules added later get slots after them.
///
/// ```swift
/// var modules = ModuleTable(planned: plan.positions)  // every module .planned
/// modules.sleep(at: 3, wake)  // the plan's fourth module: modules[name] == .dormant
/// modules[wake: "search"] = nil  // waking: the state stays until the wake-up ends
/// ```
struct ModuleTable {
  /// Each module's slot in `slots`.
  private var positions: [String: Int]
  private var slots: [Slot]
  /// Slots of forgotten modules, for the next ones added.
  private var free: [Int] = []
  /// How many modules are failed, skipped or stopped: while none is, a module whose
  /// dependencies are all in the table has none that blocks it.
  private(set) var unavailable = 0

  private struct Slot {
    var state: ModuleState
    var wake: Wake? = nil
  }

  /// Every module of `positions` (each name's place in the plan, `0..<count`) planned.
  init(planned positions: [String: Int]) {
    self.positions = positions
    self.slots = Array(repeating: Slot(state: .planned), count: positions.count)
  }

  /// A module's state; nil when no module has that name. Setting nil forgets the module.
  subscript(name: String) -> ModuleState? {
    get { positions[name].map { slots[$0].state } }
    set {
      if let newValue {
        let slot = slot(for: name)
        count(slots[slot].state, -1)
        slots[slot].state = newValue
        count(newValue, 1)
      } else if let slot = positions.removeValue(forKey: name) {
        count(slots[slot].state, -1)
        slots[slot] = Slot(state: .planned)
        free.append(slot)
      }
    }
  }

  /// Adds `change` to ``unavailable`` when `state` is failed, skipped or stopped.
  private mutating func count(_ state: ModuleState, _ change: Int) {
    switch state {
    case .failed, .failedWhileRunning, .skipped, .stopped: unavailable += change
    case .planned, .setUp, .running, .dormant: break
    }
  }

  /// The wake of a dormant module not yet woken, removed, or failed.
  subscript(wake name: String) -> Wake? {
    get { positions[name].flatMap { slots[$0].wake } }
    set {
      if let slot = positions[name] { slots[slot].wake = newValue }
    }
  }

  /// The slot of `name`, for ``sleep(at:_:)``; a module new to the table is added, planned.
  mutating func slot(for name: String) -> Int {
    if let slot = positions[name] { return slot }
    let slot = free.popLast() ?? slots.count
    positions[name] = slot
    if slot == slots.count {
      slots.append(Slot(state: .planned))
    } else {
      slots[slot] = Slot(state: .planned)
    }
    return slot
  }

  /// Marks the module in `slot` dormant, woken by `wake`.
  mutating func sleep(at slot: Int, _ wake: Wake) {
    count(slots[slot].state, -1)
    slots[slot] = Slot(state: .dormant, wake: wake)
  }
}
