/// Why a version or a version range did not parse.
///
/// ```swift
/// do { _ = try SemanticVersion("1.02.0") } catch {
///   print(error)  // version '1.02.0': minor version '02' has a leading zero
/// }
/// ```
public struct VersionSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The text that did not parse.
  public var input: String
  /// What is wrong with it.
  public var reason: String
  /// `true` for a range (`>=1.0.0 <2.0.0`), `false` for a single version.
  public var isRange: Bool

  /// Makes an error for `input`.
  ///
  /// ```swift
  /// let error = VersionSyntaxError(input: "x", reason: "expected MAJOR.MINOR.PATCH")
  /// ```
  public init(input: String, reason: String, isRange: Bool = false) {
    self.input = input
    self.reason = reason
    self.isRange = isRange
  }

  /// `version '1.02.0': minor version '02' has a leading zero`.
  public var description: String {
    "\(isRange ? "version range" : "version") '\(input)': \(reason)"
  }
}
