/// A module's event handler that did not finish within the module's manifest `timeout`: it was
/// abandoned and the event went on to the next handler.
package struct EventTimeout: Error, Sendable, Hashable, CustomStringConvertible {
  package let module: String
  package let event: String
  package let seconds: Double

  package init(module: String, event: String, seconds: Double) {
    (self.module, self.event, self.seconds) = (module, event, seconds)
  }

  package var description: String {
    "handler of '\(module)' for event '\(event)' did not finish within \(seconds) s (manifest "
      + "'timeout'); abandoned, the event went on to the next handler"
  }
}
