import ApiarySupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Ends a child when its host ends, however the host ends — `SIGKILL` included.
///
/// The host makes one pipe and keeps its write end open for its whole life, close-on-exec so no
/// child gets it. Every child gets the read end as descriptor ``childDescriptor`` and its number
/// in ``environmentKey``. A child calls ``watchParent()`` first thing: a thread blocks reading
/// the pipe, and since the host never writes, the read returns only when the kernel closes the
/// write end, that is when the host process is gone; the thread then ends the child with `_exit`.
///
/// Why a pipe and not `PR_SET_PDEATHSIG`: `posix_spawn` cannot run `prctl` in the child, and the
/// parent-death signal follows the *thread* that spawned the child, not the process — Swift's
/// concurrency pool starts and ends threads as it likes, so a child spawned from one would be
/// killed while the host lives on. A pipe's write end belongs to the process, closes on any
/// death, needs no race check against `getppid()` (an already closed pipe reads end-of-file at
/// once), and keeps working while the child's other threads hang.
///
/// ```swift
/// // First line of the child subcommand:
/// Lifeline.watchParent()
/// ```
package enum Lifeline {
  /// The environment variable naming the child's descriptor for the read end.
  package static let environmentKey = "APIARY_LIFELINE_FD"
  /// The descriptor the read end gets in every child (after standard input, output and error).
  package static let childDescriptor: Int32 = 3
  /// The status a child ends with when its host is gone.
  package static let orphanStatus: Int32 = 125

  /// The host's pipe, made on first use; nil if the system refused a pipe.
  package static let host: (read: Int32, write: Int32)? = GNUFunctions.closeOnExecPipe()

  /// In a child: starts the watcher thread if the host gave this process a lifeline, and
  /// returns whether it did. The descriptor is made close-on-exec and the variable removed, so
  /// the child's own children do not inherit either.
  @discardableResult
  package static func watchParent() -> Bool {
    guard let text = getenv(environmentKey).map({ String(cString: $0) }),
      let descriptor = Int32(text), descriptor >= 0
    else { return false }
    unsetenv(environmentKey)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    DetachedThread.start(name: "apiary-lifeline") {
      var byte: UInt8 = 0
      while true {
        let count = read(descriptor, &byte, 1)
        if count == 0 { _exit(orphanStatus) }  // end-of-file: the host is gone
        if count < 0, errno != EINTR { return }  // not a pipe after all: nothing to watch
      }
    }
    return true
  }
}
