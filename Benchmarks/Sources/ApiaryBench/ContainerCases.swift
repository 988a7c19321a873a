/// The container operations of one implementation, each a closure that performs its operation
/// `n` times, built over a container holding `bindings` bindings.
struct ContainerCases {
  var singleton: (Int) -> Void
  var transient: (Int) -> Void
  var named: (Int) -> Void
  var argument: (Int) -> Void
  var failed: (Int) -> Void
  /// The singleton resolve, callable from several threads at once.
  var concurrentSingleton: @Sendable (Int) -> Void
  /// What a first resolve of each case returned that it should not have; empty when correct.
  var problems: [String]

  /// Checks one resolve of each case before anything is timed.
  static func check(
    singleton: Bool, transient: Bool, named: Bool, argument: Bool, failedIsNil: Bool
  ) -> [String] {
    [
      singleton ? nil : "singleton resolve returned nil",
      transient ? nil : "transient resolve returned nil",
      named ? nil : "named resolve returned nil",
      argument ? nil : "resolve with argument returned nil",
      failedIsNil ? nil : "failed resolve returned an instance",
    ].compactMap { $0 }
  }
}
