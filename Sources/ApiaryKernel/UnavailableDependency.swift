/// Why a lazy module cannot wake: a dependency failed, was skipped or is not running (removed),
/// as ``Kernel`` finds it (`dependency 'store' failed`).
struct UnavailableDependency: Error, CustomStringConvertible {
  let reason: String

  var description: String { "its \(reason)" }
}
