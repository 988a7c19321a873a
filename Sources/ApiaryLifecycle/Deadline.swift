/// A lifecycle hook that did not finish within its manifest's `timeout`.
package struct LifecycleTimeout: Error, Sendable, Hashable, CustomStringConvertible {
  public let seconds: Double

  package init(seconds: Double) { self.seconds = seconds }

  public var description: String { "did not finish within \(seconds) s (manifest 'timeout')" }
}
