/// A vendored copy of the sample's contract library `NotebookKit` (one of its types, under its
/// module name), linked statically into `SplitPlugin`: what a plugin gets when it copies a
/// contract library's sources or links its targets instead of its dynamic product. The host must
/// refuse it (split type identity).
public struct Note: Sendable, Equatable {
  public var title: String

  public init(title: String) {
    self.title = title
  }
}
