/// The environment a child process starts with: the host's, with the caller's additions, and a
/// compact Swift crash report unless the user chose one.
///
/// A crashing Swift child (a force unwrap of nil, a `fatalError`) runs the Swift runtime's
/// backtracer, whose default report — every thread, the registers, the loaded images — runs to
/// about 150 lines on the host's standard error, around the host's own one-line crash report.
/// So a child gets ``compactBacktrace`` in `SWIFT_BACKTRACE`; a `SWIFT_BACKTRACE` the host has
/// (`SWIFT_BACKTRACE=preset=full apiary run`) passes unchanged.
///
/// ```swift
/// ChildEnvironment.variables(host: ["PATH": "/bin"], adding: [:])
/// // ["PATH": "/bin", "SWIFT_BACKTRACE": "threads=crashed,registers=none,…"]
/// ChildEnvironment.variables(host: ["SWIFT_BACKTRACE": "preset=full"], adding: [:])
/// // ["SWIFT_BACKTRACE": "preset=full"]
/// ```
package enum ChildEnvironment {
  /// The variable the Swift runtime's backtracer reads its settings from.
  package static let backtraceKey = "SWIFT_BACKTRACE"

  /// The crashed thread only, its innermost 15 frames (`top=0`: none kept from the thread's
  /// start), no registers or images, without colour or waiting for a debugger, on standard
  /// error (never standard output, the wire).
  package static let compactBacktrace =
    "threads=crashed,registers=none,images=none,limit=16,top=0,color=no,interactive=no,"
    + "output-to=stderr"

  /// `host` (the host's environment) with `extra` over it, and ``compactBacktrace`` in
  /// ``backtraceKey`` when neither sets it.
  package static func variables(host: [String: String], adding extra: [String: String])
    -> [String: String]
  {
    var variables = host.merging(extra) { $1 }
    if variables[backtraceKey] == nil { variables[backtraceKey] = compactBacktrace }
    return variables
  }
}
