/// Two names as one dictionary key: a service's protocol and name, a target and an action, a
/// subject and a phase.
///
/// One type for every such key, not a private one per use: the first dictionary of a new key
/// type makes the Swift runtime search every protocol conformance in the process (about 4,000)
/// for the type's `Hashable`, tens of microseconds once per type, in every `apiary` command
/// (BENCHMARKS.md, "Start of an `apiary` command").
///
/// ```swift
/// var calls: [NamePair: Int] = [:]
/// calls[NamePair("notes", "list"), default: 0] += 1
/// ```
package struct NamePair: Hashable, Sendable {
  package let first: String
  package let second: String?

  package init(_ first: String, _ second: String?) {
    self.first = first
    self.second = second
  }
}
