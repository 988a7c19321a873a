/// A set of versions: comparators separated by spaces, all of which must hold.
///
/// Forms: `>=1.2.0 <2.0.0`, `>1.0.0`, `<=1.4.0`, `=1.2.3` or `1.2.3` (exactly), `^1.2.0`
/// (compatible: `>=1.2.0 <2.0.0-0`; below 1.0.0 the first non-zero part is the major one),
/// `~1.2.0` (`>=1.2.0 <1.3.0-0`), and `*` (any version). Comparison is SemVer precedence, so
/// `<2.0.0` admits `2.0.0-beta`; `^` and `~` bound with `-0` and admit no pre-release of the next
/// version.
///
/// ```swift
/// let range = try VersionRange(">=1.2.0 <2.0.0")
/// assert(range.contains(try SemanticVersion("1.9.9")))
/// assert(!range.contains(try SemanticVersion("2.0.0")))
/// ```
public struct VersionRange: Sendable, Hashable, CustomStringConvertible {
  /// One bound: an operator and a version.
  public struct Comparator: Sendable, Hashable {
    /// How the version is compared.
    public enum Operator: String, Sendable, Hashable {
      /// At least.
      case atLeast = ">="
      /// At most.
      case atMost = "<="
      /// Greater.
      case greater = ">"
      /// Less.
      case less = "<"
      /// Equal in precedence.
      case equal = "="
    }

    /// How `version` is compared.
    public var op: Operator
    /// The bound.
    public var version: SemanticVersion

    /// Whether `candidate` satisfies this bound.
    ///
    /// ```swift
    /// let bound = VersionRange.Comparator(op: .less, version: SemanticVersion(2, 0, 0))
    /// assert(bound.admits(SemanticVersion(1, 9, 0)))
    /// ```
    public func admits(_ candidate: SemanticVersion) -> Bool {
      switch op {
      case .atLeast: candidate >= version
      case .atMost: candidate <= version
      case .greater: candidate > version
      case .less: candidate < version
      case .equal: candidate == version
      }
    }
  }

  /// The bounds, all of which must hold; empty for `*`.
  public let comparators: [Comparator]
  /// The text as written, with runs of spaces collapsed.
  public let text: String

  /// Parses a range, or says which comparator is wrong and why.
  ///
  /// ```swift
  /// let caret = try VersionRange("^1.2.0")
  /// ```
  public init(_ text: String) throws(VersionSyntaxError) {
    let tokens = text.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).map(Substring.init)
    // A loop, not `joined(separator:)`, whose generic path cost tens of microseconds per plugin.
    var collapsed = ""
    for token in tokens {
      if !collapsed.isEmpty { collapsed += " " }
      collapsed.append(contentsOf: token)
    }
    self.text = collapsed
    func fail(_ reason: String) -> VersionSyntaxError {
      VersionSyntaxError(input: text, reason: reason, isRange: true)
    }
    guard !tokens.isEmpty else { throw fail("empty; write '*' for any version") }
    var comparators: [Comparator] = []
    for (index, token) in tokens.enumerated() {
      var place: String { tokens.count == 1 ? "" : "comparator \(index + 1) '\(token)': " }
      if token == "*" {
        guard tokens.count == 1 else { throw fail("\(place)'*' cannot be combined with bounds") }
        continue
      }
      var body = token
      var sugar: UInt8?
      var op = Comparator.Operator.equal
      if let first = body.utf8.first, first == 0x5e || first == 0x7e {  // "^", "~"
        sugar = first
        body = Substring(body.utf8.dropFirst())
      } else if let match = Self.operatorPrefix(of: body) {
        op = match
        body = Substring(body.utf8.dropFirst(match.rawValue.utf8.count))
      }
      guard !body.isEmpty else {
        throw fail(
          "\(place)operator '\(token)' has no version; write it without a space, like '>=1.2.0'")
      }
      let version: SemanticVersion
      do {
        version = try SemanticVersion(String(body))
      } catch {
        throw fail("\(place)\(error.reason)")
      }
      switch sugar {
      case 0x5e:  // "^": up to the next version that changes the first non-zero part
        let upper =
          version.major > 0
          ? SemanticVersion(version.major + 1, 0, 0, preRelease: ["0"])
          : version.minor > 0
            ? SemanticVersion(0, version.minor + 1, 0, preRelease: ["0"])
            : SemanticVersion(0, 0, version.patch + 1, preRelease: ["0"])
        comparators += [.init(op: .atLeast, version: version), .init(op: .less, version: upper)]
      case 0x7e:  // "~": up to the next minor version
        let upper = SemanticVersion(version.major, version.minor + 1, 0, preRelease: ["0"])
        comparators += [.init(op: .atLeast, version: version), .init(op: .less, version: upper)]
      default:
        comparators.append(.init(op: op, version: version))
      }
    }
    self.comparators = comparators
  }

  /// The operator `token` starts with, if any: `>=` and `<=` before `>` and `<`.
  private static func operatorPrefix(of token: Substring) -> Comparator.Operator? {
    let bytes = token.utf8
    guard let first = bytes.first else { return nil }
    let equals = bytes.dropFirst().first == 0x3d
    switch first {
    case 0x3e: return equals ? .atLeast : .greater  // ">"
    case 0x3c: return equals ? .atMost : .less  // "<"
    case 0x3d: return .equal  // "="
    default: return nil
    }
  }

  /// Whether every comparator admits `version`.
  ///
  /// ```swift
  /// assert(try VersionRange("~1.2.0").contains(SemanticVersion(1, 2, 9)))
  /// ```
  public func contains(_ version: SemanticVersion) -> Bool {
    comparators.allSatisfy { $0.admits(version) }
  }

  /// The range as written: `>=1.2.0 <2.0.0`.
  public var description: String { text }
}
