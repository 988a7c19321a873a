/// A performance budget from the issue, judged from this run's rows.
struct Budget: Sendable {
  var name: String
  /// nil when the run has no figure for it (e.g. the Apiary side is not available).
  var met: Bool?
  var detail: String
}
