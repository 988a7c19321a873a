extension Duration {
  /// This duration in seconds, as Dispatch's waits and ``Deadlines`` take it.
  ///
  /// ```swift
  /// Duration.milliseconds(1500).inSeconds  // 1.5
  /// ```
  package var inSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) * 1e-18
  }
}
