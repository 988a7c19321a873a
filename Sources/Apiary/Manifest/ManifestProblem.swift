// STUB — replaced by the manifest loader branch.
public struct ManifestProblem: Error, Sendable, Hashable, CustomStringConvertible {
  public var location: SourceLocation
  public var message: String
  public var description: String { "\(location): \(message)" }
}
