import ApiaryKernel
import ApiaryManifest
import ApiarySupport

/// One connected child of a process-placed module: the process and the connection to it. The
/// module's proxy targets find it through their context (``ProcessLink/of(_:)``).
package final class ProcessLink: Sendable {
  package let module: String
  package let child: any PlacedChild
  package let connection: RPCConnection

  init(module: String, child: any PlacedChild, connection: RPCConnection) {
    self.module = module
    self.child = child
    self.connection = connection
  }

  /// Links by the identity of the module context they serve; a proxy target is made with the
  /// same context as its module.
  private static let links = Locked<[ObjectIdentifier: ProcessLink]>([:])

  /// The link serving `context`'s module, or nil when its child is not connected.
  package static func of(_ context: ModuleContext) -> ProcessLink? {
    links.withLock { $0[ObjectIdentifier(context)] }
  }

  static func set(_ link: ProcessLink?, for context: ModuleContext) {
    links.withLock { $0[ObjectIdentifier(context)] = link }
  }

  /// Closes the child's standard input (a child reads it to its end, then exits) and ends the
  /// child if it has not ended within `grace`. The wait blocks a thread of its own, not one of
  /// Swift's pool.
  func close(grace: Duration) async {
    connection.end(with: ProcessModuleError(module: module, pid: child.pid, reason: "was stopped"))
    connection.closeOutput()
    let child = self.child
    await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
      DetachedThread.start(name: "apiary-close-\(child.pid)") {
        _ = child.end(after: grace)
        closed.resume()
      }
    }
  }
}

/// A process-placed module's child cannot serve: it is not running, it ended, or it answered
/// the handshake with another protocol or build.
///
/// ```text
/// module 'search' (pid 4242): killed by signal 11 (SIGSEGV)
/// ```
public struct ProcessModuleError: Error, Sendable, Hashable, CustomStringConvertible {
  public let module: String
  /// The child's pid, or nil when none was running.
  public let pid: Int32?
  public let reason: String

  package init(module: String, pid: Int32?, reason: String) {
    self.module = module
    self.pid = pid
    self.reason = reason
  }

  public var description: String {
    "module '\(module)'\(pid.map { " (pid \($0))" } ?? ""): \(reason)"
  }
}

/// An action, hook or event handler in a child process failed; the message is the child's.
///
/// ```text
/// no note with id 7
/// ```
public struct ChildCallError: Error, Sendable, Hashable, CustomStringConvertible {
  public let module: String
  /// The JSON-RPC error code (`docs/wire-protocol.md`).
  public let code: Int
  public let message: String

  package init(module: String, _ error: RPCError) {
    self.module = module
    self.code = error.code
    self.message = error.message
  }

  public var description: String { message }
}
