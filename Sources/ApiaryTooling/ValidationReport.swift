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
  /// A plugin library the load gate refused, as the report carries it: the gate's own fields
  /// apart, so a tool reads the hint apart from what was found.
  package struct Refusal {
    /// Where a manifest names the library (else the manifests directory).
    package var location: SourceLocation
    /// The whole sentence the text format prints: `plugin refused: …`.
    package var message: String
    /// The file refused: the plugin's library, or a contract library it needs.
    package var library: String?
    /// The gate's fields; nil for a library refused after the gate (opening it failed, or two
    /// manifests expect different versions of it).
    package var gate: Gate?

    /// The load gate's problem: its kind (`manifestMismatch`, `incompatibleBuild`, …), the
    /// plugin it names, the field at fault and its descriptor line, what was expected and
    /// found, and what to do.
    package struct Gate {
      package var kind: String
      package var plugin: String?
      package var field: String?
      package var descriptorLine: Int?
      package var expected: String?
      package var found: String?
      package var hint: String?

      package init(
        kind: String, plugin: String?, field: String?, descriptorLine: Int?, expected: String?,
        found: String?, hint: String?
      ) {
        (self.kind, self.plugin, self.field, self.descriptorLine) =
          (kind, plugin, field, descriptorLine)
        (self.expected, self.found, self.hint) = (expected, found, hint)
      }
    }

    package init(location: SourceLocation, message: String, library: String?, gate: Gate?) {
      (self.location, self.message, self.library, self.gate) = (location, message, library, gate)
    }
  }

  /// The report; `refusals` are the plugin libraries the load gate refused, reported after the
  /// manifests' problems; `planError` is a boot-order failure found after both passed.
  package static func json(
    directory: String, set: ManifestSet, refusals: [Refusal] = [], planError: PlanError?
  ) -> String {
    var problems = set.problems.map(problem) + refusals.map(problem)
    if let planError {
      problems.append([
        "kind": "plan", "file": directory, "line": nil, "column": nil, "keyPath": "",
        "expected": nil, "found": nil, "hint": nil, "refusal": nil,
        "message": planError.description,
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
      "expected": expected, "found": found, "hint": nil, "refusal": nil,
      "message": problem.message,
    ]
  }

  /// One refusal, as a problem: `expected`, `found` and `hint` are the gate's own (split out of
  /// the message only for a refusal the gate did not make), and `refusal` holds the rest.
  static func problem(_ refusal: Refusal) -> [String: Any?] {
    var problem = problem(ManifestProblem(.invalidValue, at: refusal.location, refusal.message))
    let gate = refusal.gate
    let fields: [String: Any?] = [
      "kind": gate?.kind, "plugin": gate?.plugin, "library": refusal.library,
      "field": gate?.field, "descriptorLine": gate?.descriptorLine,
    ]
    problem["refusal"] = .some(fields)
    guard let gate else { return problem }
    problem["expected"] = .some(gate.expected)
    problem["found"] = .some(gate.found)
    problem["hint"] = .some(gate.hint)
    return problem
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
