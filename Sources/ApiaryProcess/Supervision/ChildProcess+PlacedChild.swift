/// Placement talks to its children through ``PlacedChild``; a ``ChildProcess`` is one.
extension ChildProcess: PlacedChild {
  /// Ends the child without waiting: SIGTERM now, SIGKILL after `grace` if it still runs.
  package func terminate(grace: Duration) {
    Task { _ = await self.terminate(grace: grace) as ChildExit }
  }

  package func exitDescription() async -> String { await exit().description }
}
