import ApiaryKernel
import ApiarySupport

/// How a ``ProcessModule`` hands its child to ``ProcessSupervision``: the first child is the
/// one `setUp` started; a restart starts, connects, starts and readies a new one the same way.
extension ProcessModule {
  /// Supervises `child`, already connected for `context`'s module. Children from a launcher
  /// other than ``ChildProcess`` (tests' stand-ins) are not supervised.
  func supervise(_ child: any PlacedChild, context: ModuleContext) {
    guard let process = child as? ChildProcess, let link = ProcessLink.of(context) else { return }
    ProcessSupervision.supervise(
      module: context.name, owner: context, restart: context.manifest.restart,
      healthCheck: context.manifest.healthCheck, first: Self.supervised(process, link),
      relaunch: { [self] in try await relaunch(context) },
      hung: { [self] failure in childDidExit("\(failure); killed", context: context) },
      crashed: { [self] crash in
        let why = crash.hang.map { "\($0); killed" } ?? crash.cause.map { "\($0); ended" }
        childDidExit(why ?? crash.exit.description, context: context)
        ProcessLink.of(context)?.connection.closeOutput()
        ProcessLink.set(nil, for: context)
      })
  }

  private static func supervised(_ process: ChildProcess, _ link: ProcessLink) -> SupervisedChild {
    SupervisedChild(process: process) { seconds in try pingBlocking(link, seconds: seconds) }
  }

  /// A ping that needs no thread of Swift's pool, for the health check's own thread.
  private static func pingBlocking(_ link: ProcessLink, seconds: Double) throws {
    do {
      _ = try link.connection.callBlocking("ping", seconds: seconds)
    } catch let timedOut as CallTimedOut {
      throw timedOut
    } catch {
      throw failure(error, of: link)
    }
  }

  /// A new child for a restart: the module's command again (so a rebuilt plugin library is
  /// loaded), then the handshake and `setUp`, `start` and `ready`, as at boot.
  private func relaunch(_ context: ModuleContext) async throws -> SupervisedChild {
    // A `:restart` ended the old child but left its link: close the host's end of its input,
    // as the crash path does, or every restart keeps one descriptor.
    if let old = ProcessLink.of(context) {
      old.connection.closeOutput()
      ProcessLink.set(nil, for: context)
    }
    let child = try ChildLauncher.launch(context.manifest.command ?? [], module: context.name)
    guard let process = child as? ChildProcess else {
      child.terminate(grace: .zero)
      throw ProcessModuleError(
        module: context.name, pid: child.pid, reason: "the launcher did not start a ChildProcess")
    }
    do {
      context.events.removeAll(ownedBy: [context.name])  // the old child's subscriptions
      try await Self.offThePool { try self.connect(child: child, context: context) }
      try await startChild(context)
      try await ready(context)
      return Self.supervised(process, try Self.link(context))
    } catch {
      ProcessLink.of(context)?.connection.closeOutput()
      ProcessLink.set(nil, for: context)
      _ = await process.terminate(grace: .zero) as ChildExit
      throw error
    }
  }

  /// Runs `body`, which blocks (the handshake waits for the child's answer), on a thread of its
  /// own rather than on one of Swift's few concurrency threads.
  private static func offThePool(_ body: @escaping @Sendable () throws -> Void) async throws {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      DetachedThread.start(name: "apiary-connect") {
        do {
          try body()
          continuation.resume()
        } catch {
          continuation.resume(throwing: error)
        }
      }
    }
  }
}
