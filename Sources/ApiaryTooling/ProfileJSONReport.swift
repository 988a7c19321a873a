import ApiaryLifecycle

extension Profiler {
  /// `apiary run --profile --format json`: every timed hook and event dispatch, slowest first,
  /// in the versioned envelope of the other JSON outputs.
  ///
  /// ```swift
  /// print(kernel.profiler.report())
  /// // {"command":"run","profile":[{"microseconds":812,"phase":"start","sequence":3,
  /// //   "subject":"store"}, …],"schemaVersion":1}
  /// ```
  package func report() -> String {
    let entries = slowestFirst.map { entry -> [String: Any?] in
      [
        "subject": entry.subject, "phase": entry.phase.rawValue,
        "microseconds": Self.microseconds(entry.duration), "sequence": entry.sequence,
      ]
    }
    return JSONDocument.render(command: "run", ["profile": entries])
  }
}
