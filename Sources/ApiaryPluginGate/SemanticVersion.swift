/// A version as SemVer 2.0.0 defines it: `MAJOR.MINOR.PATCH`, an optional pre-release
/// (`-beta.2`) and optional build metadata (`+sha.5114f85`). Ordering is SemVer precedence:
/// a pre-release sorts before its release, and build metadata is ignored.
///
/// ```swift
/// let beta = try SemanticVersion("1.0.0-beta.2")
/// let release = try SemanticVersion("1.0.0+build.7")
/// assert(beta < release && release == (try SemanticVersion("1.0.0")))
/// ```
public struct SemanticVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// The major version.
  public let major: Int
  /// The minor version.
  public let minor: Int
  /// The patch version.
  public let patch: Int
  /// The dot-separated pre-release identifiers (`["beta", "2"]`), empty for a release.
  public let preRelease: [String]
  /// The dot-separated build metadata identifiers; not part of precedence or equality.
  public let build: [String]

  /// Parses `text`, or says exactly what is wrong with it.
  ///
  /// ```swift
  /// let version = try SemanticVersion("2.1.0-rc.1")
  /// ```
  public init(_ text: String) throws(VersionSyntaxError) {
    func fail(_ reason: String) -> VersionSyntaxError {
      VersionSyntaxError(input: text, reason: reason)
    }
    var rest = Substring(text)
    var build: [String] = []
    if let plus = rest.firstIndex(of: "+") {
      build = rest[rest.index(after: plus)...].split(
        separator: ".", omittingEmptySubsequences: false
      )
      .map(String.init)
      rest = rest[..<plus]
      for identifier in build {
        guard !identifier.isEmpty else { throw fail("build metadata has an empty identifier") }
        guard identifier.allSatisfy(Self.isIdentifierCharacter) else {
          throw fail("build metadata '\(identifier)' may hold only [0-9A-Za-z-]")
        }
      }
    }
    var preRelease: [String] = []
    if let dash = rest.firstIndex(of: "-") {
      preRelease = rest[rest.index(after: dash)...].split(
        separator: ".", omittingEmptySubsequences: false
      ).map(String.init)
      rest = rest[..<dash]
      for identifier in preRelease {
        guard !identifier.isEmpty else { throw fail("pre-release has an empty identifier") }
        guard identifier.allSatisfy(Self.isIdentifierCharacter) else {
          throw fail("pre-release '\(identifier)' may hold only [0-9A-Za-z-]")
        }
        if identifier.allSatisfy(\.isASCIIDigit), identifier.count > 1, identifier.first == "0" {
          throw fail("numeric pre-release '\(identifier)' has a leading zero")
        }
      }
    }
    let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw fail(
        "expected MAJOR.MINOR.PATCH (like 1.2.3), found \(parts.count) part\(parts.count == 1 ? "" : "s")"
      )
    }
    var numbers: [Int] = []
    for (part, name) in zip(parts, ["major", "minor", "patch"]) {
      guard !part.isEmpty, part.allSatisfy(\.isASCIIDigit) else {
        throw fail("\(name) version '\(part)' is not a number")
      }
      guard part.count == 1 || part.first != "0" else {
        throw fail("\(name) version '\(part)' has a leading zero")
      }
      guard let number = Int(part), number < Int.max else {
        throw fail("\(name) version '\(part)' is too large")
      }
      numbers.append(number)
    }
    self.init(numbers[0], numbers[1], numbers[2], preRelease: preRelease, build: build)
  }

  /// Makes a version from its parts, which must be valid (non-negative numbers, SemVer
  /// identifiers); use `init(_:)` for text.
  ///
  /// ```swift
  /// let next = SemanticVersion(2, 0, 0, preRelease: ["0"])
  /// ```
  public init(
    _ major: Int, _ minor: Int, _ patch: Int, preRelease: [String] = [], build: [String] = []
  ) {
    self.major = major
    self.minor = minor
    self.patch = patch
    self.preRelease = preRelease
    self.build = build
  }

  /// `1.2.3-beta.1+build.5`.
  public var description: String {
    var text = "\(major).\(minor).\(patch)"
    if !preRelease.isEmpty { text += "-" + preRelease.joined(separator: ".") }
    if !build.isEmpty { text += "+" + build.joined(separator: ".") }
    return text
  }

  /// Equal in precedence: build metadata is ignored.
  public static func == (a: Self, b: Self) -> Bool {
    a.major == b.major && a.minor == b.minor && a.patch == b.patch && a.preRelease == b.preRelease
  }

  /// Hashes what equality compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(major)
    hasher.combine(minor)
    hasher.combine(patch)
    hasher.combine(preRelease)
  }

  /// SemVer 2.0.0 precedence (section 11).
  public static func < (a: Self, b: Self) -> Bool {
    if (a.major, a.minor, a.patch) != (b.major, b.minor, b.patch) {
      return (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }
    switch (a.preRelease.isEmpty, b.preRelease.isEmpty) {
    case (true, _): return false
    case (false, true): return true
    case (false, false): break
    }
    for (x, y) in zip(a.preRelease, b.preRelease) where x != y {
      switch (x.allSatisfy(\.isASCIIDigit), y.allSatisfy(\.isASCIIDigit)) {
      case (true, true): return (x.count, x) < (y.count, y)  // numeric, without leading zeros
      case (true, false): return true
      case (false, true): return false
      case (false, false): return x < y
      }
    }
    return a.preRelease.count < b.preRelease.count
  }

  private static func isIdentifierCharacter(_ character: Character) -> Bool {
    character.isASCII && (character.isLetter || character.isNumber || character == "-")
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
