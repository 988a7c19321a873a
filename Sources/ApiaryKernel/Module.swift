/// A unit of an application, provided by a plugin and declared in a manifest.
///
/// Every hook has a default that does nothing, so a module implements only what it needs. The
/// kernel calls `setUp` on every module in boot order (register services, targets' helpers and
/// event handlers), then `start` (open files, connect, warm caches; modules marked `async` in
/// their manifest start concurrently once their dependencies have started), then `ready` once
/// every module has started. `tearDown` runs in exact reverse of the start order.
///
/// ```swift
/// final class GreeterModule: Module {
///   func setUp(_ context: ModuleContext) throws {
///     try context.container.register(Greeter.self, scope: .singleton) { _ in Greeter() }
///   }
///   func start(_ context: ModuleContext) async throws {
///     let name = try context.config.string("name", default: "world")
///     print("hello, \(name)")
///   }
/// }
/// ```
///
/// Modules must be classes with an `init()`, so the kernel can create them by name; they are
/// `Sendable` because hooks may run on any thread. Hooks run on threads outside the Swift
/// concurrency pool; a hook that overruns its `timeout` is abandoned, not stopped (see the
/// README's "Time limits").
public protocol Module: AnyObject, Sendable {
  init()
  /// Registers what the module provides. Runs in boot order before any module starts; bounded
  /// by the manifest's `timeout`.
  func setUp(_ context: ModuleContext) throws
  /// Brings the module into service. Bounded by the manifest's `timeout`.
  func start(_ context: ModuleContext) async throws
  /// Called once every module has started. Bounded by the manifest's `timeout`; throwing fails
  /// a required module's boot (an optional module is torn down and marked failed).
  func ready(_ context: ModuleContext) async throws
  /// Releases what `start` acquired. Runs in reverse start order; errors are reported, not fatal.
  func tearDown(_ context: ModuleContext) async throws
  /// False when the type keeps every hook's default (it only declares services and targets in
  /// its manifest): waking it then runs no hook lane, so its first call costs no thread
  /// hand-off for hooks, and booting it runs no `setUp`, `start` or `ready` (recorded done, the
  /// last two in zero time). A type that says false has those hooks ignored.
  ///
  /// ```swift
  /// final class Quiet: Module {
  ///   static var hasHooks: Bool { false }
  /// }
  /// ```
  static var hasHooks: Bool { get }
}

extension Module {
  public func setUp(_ context: ModuleContext) throws {}
  public func start(_ context: ModuleContext) async throws {}
  public func ready(_ context: ModuleContext) async throws {}
  public func tearDown(_ context: ModuleContext) async throws {}
  public static var hasHooks: Bool { true }
}
