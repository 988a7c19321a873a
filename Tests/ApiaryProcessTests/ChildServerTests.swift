import ApiaryKernel
import ApiaryManifest
import ApiarySupport
import Foundation
import Testing

@testable import ApiaryProcess

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The child's side of placement (``ChildServer``, `apiary child`) driven by a host connection
/// of the test's own over two pipes.
@Suite struct ChildServerTests {
  /// A child server for a module of no targets, and the test's connection to it, started.
  private static func served() throws -> (ChildServer, RPCConnection, descriptors: [Int32]) {
    let toChild = try testPipe()
    let fromChild = try testPipe()
    let catalog = TypeCatalog()
    catalog.register(NotesModule.self)
    let server = try ChildServer(
      application: ApplicationManifest(name: "Test", scheme: "test", environment: .test),
      module: ModuleManifest(
        name: "notes", type: String(reflecting: NotesModule.self), placement: .process),
      catalog: catalog)
    let host = RPCConnection(reading: fromChild[0], writing: toChild[1])
    host.start { _, _ in nil }
    return (server, host, [toChild[0], fromChild[0], fromChild[1]])
  }

  /// Serves on the test's pipes in a task of its own.
  private static func serve(_ server: ChildServer, _ descriptors: [Int32]) -> Served {
    let served = Served()
    Task {
      let status = await server.serve(reading: descriptors[0], writing: descriptors[2])
      served.ended(status)
    }
    return served
  }

  /// The host's input ending between `setUp` and `start` ends the child with status 0, as
  /// documented ("0 when the host closes its input"): its boot, held until the host asks for
  /// `start`, kept the shutdown waiting forever.
  @Test func theChildEndsWhenItsInputEndsAfterSetUp() async throws {
    let (server, host, descriptors) = try Self.served()
    defer { _ = descriptors.map(close) }
    let served = Self.serve(server, descriptors)
    _ = try await host.call("initialize", ProcessHost.handshake.message(module: "notes"))
    #expect(try await host.call("setUp") == ["events": []])
    host.closeOutput()
    #expect(await served.status() == 0)
  }

  /// The host's first request must be `initialize`: a `setUp` before it was served.
  @Test func requestsBeforeInitializeAreRefused() async throws {
    let (server, host, descriptors) = try Self.served()
    defer { _ = descriptors.map(close) }
    let served = Self.serve(server, descriptors)
    for method in ["setUp", "ping"] {
      await #expect(
        throws: RPCError(
          RPCError.invalidRequest,
          "'\(method)' before 'initialize': the host's first request must be 'initialize'")
      ) {
        try await host.call(method)
      }
    }
    _ = try await host.call("initialize", ProcessHost.handshake.message(module: "notes"))
    #expect(try await host.call("ping") == [:])
    host.closeOutput()
    #expect(await served.status() == 0)
  }
}

/// The exit status of a child server, once it has ended.
private final class Served: Sendable {
  private let outcome = Locked<Int32?>(nil)
  private let done = DispatchSemaphore(value: 0)

  func ended(_ status: Int32) {
    outcome.withLock { $0 = status }
    done.signal()
  }

  /// The status; nil when the server has not ended within 60 s (it waits on a thread of its
  /// own, not one of Swift's pool), so a server that never ends fails the test.
  func status() async -> Int32? {
    await withCheckedContinuation { continuation in
      Thread { [self] in
        _ = done.wait(timeout: .now() + 60)
        continuation.resume(returning: outcome.withLock { $0 })
      }.start()
    }
  }
}
