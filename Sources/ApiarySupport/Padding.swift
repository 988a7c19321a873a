extension String {
  /// The string followed by spaces up to `width` characters, for text tables; unchanged when it
  /// is already that wide.
  ///
  /// ```swift
  /// "notes".padding(8) + "|"  // "notes   |"
  /// ```
  package func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
