import ApiaryKernel
import ApiaryManifest
import ApiarySupport

/// `apiary validate --format json`: every problem with file, line, column, key path, expected,
/// found and message.
///
/// ```swift
/// let set = ManifestLoader(catalog: TypeCatalog()).load(directory: "Manifests")
/// print(ValidationReport.json(directory: "Manifests", set: set, planError: nil))
/// ```
package enum ValidationReport {
  /// The report; `planError` is a boot-order failure found after the manifests themselves passed.
  package static func json(directory: String, set: ManifestSet, planError: PlanError?) -> String {
    var problems = set.problems.map(problem)
    if let planError {
      problems.append([
        "kind": "plan", "file": directory, "line": nil, "column": nil, "keyPath": "",
        "expected": nil, "found": nil, "message": planError.description,
      ])
    }
    return JSONDocument.render(
      command: "validate",
      [
        "directory": directory, "valid": problems.isEmpty,
        "application": set.application?.name, "enabledModules": set.enabledModules.count,
        "files": set.files, "problems": problems,
      ])
  }

  /// One problem; `expected` and `found` are split out of messages that say
  /// "expected X, found Y", and null for the others (a duplicate name, a cycle).
  static func problem(_ problem: ManifestProblem) -> [String: Any?] {
    let (expected, found) = expectedAndFound(problem.message)
    return [
      "kind": problem.kind.rawValue, "file": problem.location.file, "line": problem.location.line,
      "column": problem.location.column, "keyPath": problem.location.keyPath,
      "expected": expected, "found": found, "message": problem.message,
    ]
  }

  /// `("integer", "string \"high\"")` for `expected integer, found string "high"`.
  static func expectedAndFound(_ message: String) -> (String?, String?) {
    guard let start = message.firstRange(of: "expected ") else { return (nil, nil) }
    let rest = message[start.upperBound...]
    guard let separator = rest.firstRange(of: ", found ") else {
      return (String(rest).trimmingParenthesis(), nil)
    }
    return (
      String(rest[..<separator.lowerBound]),
      String(rest[separator.upperBound...]).trimmingParenthesis()
    )
  }
}

extension String {
  /// Drops a trailing `)` left from a parenthesised hint: `(expected string)`.
  fileprivate func trimmingParenthesis() -> String {
    hasSuffix(")") && !contains("(") ? String(dropLast()) : self
  }
}
