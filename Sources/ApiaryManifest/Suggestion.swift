import ApiarySupport

/// "Did you mean …?" for misspelt keys, module names and enum values.
package enum Suggestion {
  /// The candidate closest to `word` by edit distance, when it is close enough to be a likely
  /// typo (a case-only difference always is).
  package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
    // Long words are not typos worth suggesting for, and would make the search quadratic.
    guard word.utf8.count <= 64 else { return nil }
    let target = Array(word.lowercased().utf8)
    let limit = max(2, target.count / 3)
    var best: (String, Int)?
    for candidate in candidates {
      let other = Array(candidate.lowercased().utf8)
      var distance = editDistance(target, other, limit: limit)
      // A shortened or extended word ("integer" for "int") counts as close.
      if min(target.count, other.count) >= 3,
        target.starts(with: other) || other.starts(with: target)
      {
        distance = min(distance, limit)
      }
      if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
    }
    return best?.0
  }

  /// The type name in `names` closest to `name`, by its full name (`NotesPlugin.NotesModule`)
  /// or by its name without the module's (`NotesModule`), so `NoteStore` finds
  /// `NotebookKit.NoteStore`.
  package static func closestType(to name: String, in names: [String]) -> String? {
    let unqualified = names.map { String($0.split(separator: ".").last ?? "") }
    guard let match = closest(to: name, in: names + unqualified) else { return nil }
    return names.contains(match) ? match : names.first { $0.hasSuffix("." + match) }
  }

  /// `" (did you mean 'x'?)"` or an empty string.
  package static func hint(for word: String, in candidates: some Sequence<String>) -> String {
    hint(closest(to: word, in: candidates))
  }

  /// `" (did you mean 'x'?)"` for `x`, or an empty string for nil.
  package static func hint(_ suggestion: String?) -> String {
    suggestion.map { " (did you mean '\($0)'?)" } ?? ""
  }
}
