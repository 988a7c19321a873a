import ApiaryLifecycle

extension Profiler {
  /// `apiary run --profile --format json`: every timed subject and phase, slowest call first,
  /// and every lazy module that woke, in the versioned envelope of the other JSON outputs.
  ///
  /// ```swift
  /// print(kernel.profiler.report())
  /// // {"command":"run","profile":[{"count":1,"microseconds":812,"phase":"start","sequence":3,
  /// //   "subject":"store","totalMicroseconds":812}, …],"schemaVersion":1}
  /// ```
  package func report() -> String {
    let entries = slowestFirst.map { entry -> [String: Any?] in
      [
        "subject": entry.subject, "phase": entry.phase.rawValue, "count": entry.count,
        "microseconds": Self.microseconds(entry.slowest),
        "totalMicroseconds": Self.microseconds(entry.total), "sequence": entry.sequence,
      ]
    }
    let woken = activations.map { wake -> [String: Any?] in
      [
        "module": wake.module, "trigger": wake.trigger, "succeeded": wake.succeeded,
        "microseconds": Self.microseconds(wake.duration),
      ]
    }
    return JSONDocument.render(command: "run", ["profile": entries, "activations": woken])
  }
}
