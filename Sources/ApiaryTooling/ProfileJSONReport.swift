import ApiaryLifecycle

extension Profiler {
  /// `apiary run --profile --format json`: every timed subject and phase, slowest call first,
  /// in the versioned envelope of the other JSON outputs.
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
    return JSONDocument.render(command: "run", ["profile": entries])
  }
}
