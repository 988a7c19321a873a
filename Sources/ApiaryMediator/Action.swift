/// An action's implementation: a closure that gets the target and the checked parameters and
/// returns a value (any `Sendable`, or nothing) or throws. Synchronous actions can be called
/// from synchronous and asynchronous code; `async` ones only with `await`.
///
/// ```swift
/// "create": .sync { target, params in try target.create(title: params.string("title")) }
/// "export": .async { target, params in try await target.export(to: params.string("path")) }
/// ```
///
/// `T` is the target class (see ``ActionTable`` for why it is not required to be a target).
public struct Action<T: AnyObject>: Sendable {
  enum Body: Sendable {
    case sync(@Sendable (T, Parameters) throws -> (any Sendable)?)
    case async(@Sendable (T, Parameters) async throws -> (any Sendable)?)
    /// Both: the synchronous body for synchronous calls, the `async` one for awaited calls.
    case both(
      @Sendable (T, Parameters) throws -> (any Sendable)?,
      @Sendable (T, Parameters) async throws -> (any Sendable)?)
  }

  let body: Body

  /// A synchronous action.
  public static func sync(_ body: @escaping @Sendable (T, Parameters) throws -> (any Sendable)?)
    -> Action
  {
    Action(body: .sync(body))
  }

  /// An action with a body for each kind of call: synchronous calls run `sync` on the caller's
  /// thread, awaited calls run `async` on the caller's task (the stand-in targets of
  /// process-placed modules, whose calls wait for another process). The `async` body must hold
  /// no thread while it waits and must end with ``ErrorCode/timedOut`` past the action's
  /// `timeout`: the mediator does not bound it.
  package static func both(
    sync: @escaping @Sendable (T, Parameters) throws -> (any Sendable)?,
    async: @escaping @Sendable (T, Parameters) async throws -> (any Sendable)?
  ) -> Action {
    Action(body: .both(sync, async))
  }

  /// An asynchronous action; callers must use the `async` `perform` or `open`.
  public static func async(
    _ body: @escaping @Sendable (T, Parameters) async throws -> (any Sendable)?
  ) -> Action {
    Action(body: .async(body))
  }
}
