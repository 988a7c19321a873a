/// Levenshtein distance between two byte strings, or something above `limit` once it is
/// certain to exceed it; for "did you mean" hints on short names.
///
/// ```swift
/// editDistance(Array("kitten".utf8), Array("sitting".utf8), limit: 5)  // 3
/// ```
package func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int = .max) -> Int {
  if abs(a.count - b.count) > limit { return limit + 1 }
  if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    var rowMinimum = i
    for j in 1...b.count {
      let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
      rowMinimum = min(rowMinimum, current[j])
    }
    if rowMinimum > limit { return limit + 1 }
    swap(&previous, &current)
  }
  return previous[b.count]
}
