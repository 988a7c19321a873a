#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A child process could not be started: what was run and the system's reason.
///
/// ```swift
/// ChildSpawnError(executable: "/no/such", step: "posix_spawn", errno: ENOENT).description
/// // "cannot start /no/such: posix_spawn failed: No such file or directory"
/// ```
package struct ChildSpawnError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A stable code for scripts and tests.
  package static let code = "child-spawn"
  package var executable: String
  /// The call that failed: `pipe2`, `posix_spawn`, …
  package var step: String
  package var errno: Int32

  package init(executable: String, step: String, errno: Int32) {
    self.executable = executable
    self.step = step
    self.errno = errno
  }

  package var description: String {
    "cannot start \(executable): \(step) failed: \(String(cString: strerror(errno)))"
  }
}
