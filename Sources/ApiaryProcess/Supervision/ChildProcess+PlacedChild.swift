#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Placement talks to its children through ``PlacedChild``; a ``ChildProcess`` is one.
extension ChildProcess: PlacedChild {
  /// Ends the child without waiting: SIGTERM now, SIGKILL after `grace` if it still runs.
  /// SIGTERM is sent before this returns, so a host about to exit leaves no child behind.
  package func terminate(grace: Duration) {
    if send(SIGTERM) { killAfter(grace) }
  }

  package func exitDescription(waitingAtMost timeout: Duration) -> String? {
    exit(waitingAtMost: timeout)?.description
  }
}
