import ApiaryManifest

/// A declared action bound to its implementation, prepared once when its target is added, so
/// a call is a dictionary lookup, a parameter check and a closure call.
final class PreparedAction: Sendable {
  let target: String
  let action: String
  let manifest: ActionManifest
  let schema: ParameterSchema
  /// Nil for `async` actions.
  let runSync: (@Sendable (Parameters, Bool) throws -> (any Sendable)?)?
  let runAsync: @Sendable (Parameters, Bool) async throws -> (any Sendable)?
  /// Whether awaited calls run `runAsync` on the caller's task, with no time limit of the
  /// mediator's: the body bounds itself (``Action/both(sync:async:)``).
  let boundsItself: Bool

  init<T: ActionTarget>(
    target: String, manifest: ActionManifest, schema: ParameterSchema, action: Action<T>,
    box: TargetBox
  ) {
    self.target = target
    self.action = manifest.name
    self.manifest = manifest
    self.schema = schema
    // `box` was created with a maker for `T.self` (see `Mediator.prepare`), so every instance
    // it returns is a `T`; `unsafeDowncast` skips a dynamic cast on every call (it is checked in debug builds).
    switch action.body {
    case .sync(let body):
      let run: @Sendable (Parameters, Bool) throws -> (any Sendable)? = { params, cache in
        try body(unsafeDowncast(box.instance(cache: cache), to: T.self), params)
      }
      runSync = run
      runAsync = { params, cache in try run(params, cache) }
      boundsItself = false
    case .async(let body):
      runSync = nil
      runAsync = { params, cache in
        try await body(unsafeDowncast(box.instance(cache: cache), to: T.self), params)
      }
      boundsItself = false
    case .both(let sync, let async):
      runSync = { params, cache in
        try sync(unsafeDowncast(box.instance(cache: cache), to: T.self), params)
      }
      runAsync = { params, cache in
        try await async(unsafeDowncast(box.instance(cache: cache), to: T.self), params)
      }
      boundsItself = true
    }
  }
}
