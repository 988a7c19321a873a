extension Duration {
  /// A limit a manifest gives in seconds (any positive number), at most 10⁹ s (31 years):
  /// `Duration.seconds(1e300)` traps, and a limit that far is never reached anyway.
  ///
  /// ```swift
  /// Duration.manifestSeconds(1e300)  // .seconds(1_000_000_000)
  /// ```
  package static func manifestSeconds(_ seconds: Double) -> Duration {
    .seconds(min(seconds, 1e9))
  }
}
