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
    try self.init(utf8: Array(text.utf8)[...])
  }

  /// Parses a range's UTF-8 bytes, as a descriptor's `requires` line holds them. Bytes, not
  /// substrings: each string view or array type new to a process costs code pages and metadata
  /// on the first plugin load (BENCHMARKS.md, "Plugins").
  init(utf8 bytes: ArraySlice<UInt8>) throws(VersionSyntaxError) {
    func fail(_ reason: String) -> VersionSyntaxError {
      VersionSyntaxError(
        input: String(decoding: bytes, as: UTF8.self), reason: reason, isRange: true)
    }
    // The comparators with one space between them: runs of spaces and tabs collapsed, the ends
    // trimmed.
    var collapsed: [UInt8] = []
    for byte in bytes {
      if byte != 0x20 && byte != 0x09 {
        collapsed.append(byte)
      } else if let last = collapsed.last, last != 0x20 {
        collapsed.append(0x20)
      }
    }
    if collapsed.last == 0x20 { collapsed.removeLast() }
    text = String(decoding: collapsed, as: UTF8.self)
    guard !collapsed.isEmpty else { throw fail("empty; write '*' for any version") }
    var count = 1
    for byte in collapsed where byte == 0x20 { count += 1 }
    var comparators: [Comparator] = []
    var (start, position) = (0, 0)
    while start < collapsed.count {
      let stop = collapsed[start...].firstIndex(of: 0x20) ?? collapsed.count
      let token = collapsed[start..<stop]
      (start, position) = (stop + 1, position + 1)
      var place: String {
        count == 1
          ? "" : "comparator \(position) '\(String(decoding: token, as: UTF8.self))': "
      }
      if token.count == 1 && token.first == 0x2a {  // "*"
        guard count == 1 else { throw fail("\(place)'*' cannot be combined with bounds") }
        continue
      }
      var body = token
      var sugar: UInt8?
      var op = Comparator.Operator.equal
      if let first = body.first, first == 0x5e || first == 0x7e {  // "^", "~"
        sugar = first
        body = body.dropFirst()
      } else if let match = Self.operatorPrefix(of: body) {
        op = match
        body = body.dropFirst(match.rawValue.utf8.count)
      }
      guard !body.isEmpty else {
        throw fail(
          "\(place)operator '\(String(decoding: token, as: UTF8.self))' has no version; write it"
            + " without a space, like '>=1.2.0'")
      }
      let version: SemanticVersion
      do {
        version = try SemanticVersion(utf8: body)
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
        comparators.append(.init(op: .atLeast, version: version))
        comparators.append(.init(op: .less, version: upper))
      case 0x7e:  // "~": up to the next minor version
        let upper = SemanticVersion(version.major, version.minor + 1, 0, preRelease: ["0"])
        comparators.append(.init(op: .atLeast, version: version))
        comparators.append(.init(op: .less, version: upper))
      default:
        comparators.append(.init(op: op, version: version))
      }
    }
    self.comparators = comparators
  }

  /// The operator `token` starts with, if any: `>=` and `<=` before `>` and `<`.
  private static func operatorPrefix(of bytes: ArraySlice<UInt8>) -> Comparator.Operator? {
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
