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
    let bytes = Array(text.utf8)
    let plus = bytes.firstIndex(of: 0x2b) ?? bytes.count  // "+"
    let dash = bytes[..<plus].firstIndex(of: 0x2d) ?? plus  // "-"
    let build = try Self.identifiers(bytes, after: plus, what: "build metadata", fail)
    let preRelease = try Self.identifiers(bytes[..<plus], after: dash, what: "pre-release", fail)
    for identifier in preRelease
    where identifier.utf8.allSatisfy(Self.isDigit) && identifier.utf8.count > 1
      && identifier.utf8.first == 0x30
    {
      throw fail("numeric pre-release '\(identifier)' has a leading zero")
    }
    let dots = bytes[..<dash].indices.filter { bytes[$0] == 0x2e }
    guard dots.count == 2 else {
      let parts = dots.count + 1
      throw fail(
        "expected MAJOR.MINOR.PATCH (like 1.2.3), found \(parts) part\(parts == 1 ? "" : "s")")
    }
    var numbers = [0, 0, 0]
    for (which, range) in [0..<dots[0], dots[0] + 1..<dots[1], dots[1] + 1..<dash].enumerated() {
      let part = bytes[range]
      let name = Self.partNames[which]
      var shown: String { String(decoding: part, as: UTF8.self) }
      guard !part.isEmpty, part.allSatisfy(Self.isDigit) else {
        throw fail("\(name) version '\(shown)' is not a number")
      }
      guard part.count == 1 || part.first != 0x30 else {
        throw fail("\(name) version '\(shown)' has a leading zero")
      }
      guard part.count < 19 else { throw fail("\(name) version '\(shown)' is too large") }
      numbers[which] = part.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
    self.init(numbers[0], numbers[1], numbers[2], preRelease: preRelease, build: build)
  }

  /// The dot-separated identifiers after the marker at `marker` (none if it is the end).
  private static func identifiers(
    _ bytes: ArraySlice<UInt8>, after marker: Int, what: String,
    _ fail: (String) -> VersionSyntaxError
  ) throws(VersionSyntaxError) -> [String] {
    guard marker < bytes.endIndex else { return [] }
    return try bytes[(marker + 1)...].split(separator: 0x2e, omittingEmptySubsequences: false)
      .map { (identifier) throws(VersionSyntaxError) -> String in
        let text = String(decoding: identifier, as: UTF8.self)
        guard !identifier.isEmpty else { throw fail("\(what) has an empty identifier") }
        guard identifier.allSatisfy(isIdentifierByte) else {
          throw fail("\(what) '\(text)' may hold only [0-9A-Za-z-]")
        }
        return text
      }
  }

  private static func identifiers(
    _ bytes: [UInt8], after marker: Int, what: String, _ fail: (String) -> VersionSyntaxError
  ) throws(VersionSyntaxError) -> [String] {
    try identifiers(bytes[...], after: marker, what: what, fail)
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
      switch (x.utf8.allSatisfy(isDigit), y.utf8.allSatisfy(isDigit)) {
      case (true, true): return (x.count, x) < (y.count, y)  // numeric, without leading zeros
      case (true, false): return true
      case (false, true): return false
      case (false, false): return x < y
      }
    }
    return a.preRelease.count < b.preRelease.count
  }

  private static let partNames = ["major", "minor", "patch"]

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private static func isIdentifierByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7a) || byte == 0x2d
  }
}
