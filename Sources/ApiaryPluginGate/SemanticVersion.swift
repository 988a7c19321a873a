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
    try self.init(utf8: Array(text.utf8)[...])
  }

  /// Parses a version's UTF-8 bytes: the load gate parses a descriptor's lines and a range's
  /// comparators where they lie, without making a `String` of each (BENCHMARKS.md, "Plugins").
  init(utf8 bytes: ArraySlice<UInt8>) throws(VersionSyntaxError) {
    // One pass over the bytes with index loops: no arrays of ranges, closures or splits, which
    // each cost a metadata instantiation or a page of code the first time a process parses a
    // version (the host's own version, then each plugin's; BENCHMARKS.md, "Plugins").
    func fail(_ reason: String) -> VersionSyntaxError {
      VersionSyntaxError(input: String(decoding: bytes, as: UTF8.self), reason: reason)
    }
    let (start, end) = (bytes.startIndex, bytes.endIndex)
    let plus = bytes.firstIndex(of: 0x2b) ?? end  // "+"
    var dash = plus  // "-"
    for index in start..<plus where bytes[index] == 0x2d {
      dash = index
      break
    }
    let build =
      plus < end ? try Self.identifiers(bytes, plus + 1..<end, what: "build metadata", fail) : []
    let preRelease =
      dash < plus ? try Self.identifiers(bytes, dash + 1..<plus, what: "pre-release", fail) : []
    for identifier in preRelease
    where identifier.utf8.allSatisfy(Self.isDigit) && identifier.utf8.count > 1
      && identifier.utf8.first == 0x30
    {
      throw fail("numeric pre-release '\(identifier)' has a leading zero")
    }
    var dots = 0
    var firstDot = dash
    var secondDot = dash
    for index in start..<dash where bytes[index] == 0x2e {
      if dots == 0 { firstDot = index } else if dots == 1 { secondDot = index }
      dots += 1
    }
    guard dots == 2 else {
      let parts = dots + 1
      throw fail(
        "expected MAJOR.MINOR.PATCH (like 1.2.3), found \(parts) part\(parts == 1 ? "" : "s")")
    }
    func number(_ start: Int, _ end: Int, _ name: String) throws(VersionSyntaxError) -> Int {
      var shown: String { String(decoding: bytes[start..<end], as: UTF8.self) }
      var value = 0
      for index in start..<end {
        guard Self.isDigit(bytes[index]) else {
          throw fail("\(name) version '\(shown)' is not a number")
        }
        if end - start < 19 { value = value * 10 + Int(bytes[index] - 0x30) }
      }
      guard end > start else { throw fail("\(name) version '\(shown)' is not a number") }
      guard end - start == 1 || bytes[start] != 0x30 else {
        throw fail("\(name) version '\(shown)' has a leading zero")
      }
      guard end - start < 19 else { throw fail("\(name) version '\(shown)' is too large") }
      return value
    }
    self.init(
      try number(start, firstDot, "major"), try number(firstDot + 1, secondDot, "minor"),
      try number(secondDot + 1, dash, "patch"), preRelease: preRelease, build: build)
  }

  /// The dot-separated identifiers in `range` of `bytes` (at least one, maybe empty).
  private static func identifiers(
    _ bytes: ArraySlice<UInt8>, _ range: Range<Int>, what: String,
    _ fail: (String) -> VersionSyntaxError
  ) throws(VersionSyntaxError) -> [String] {
    var found: [String] = []
    var start = range.lowerBound
    while true {
      var end = start
      while end < range.upperBound && bytes[end] != 0x2e { end += 1 }
      let text = String(decoding: bytes[start..<end], as: UTF8.self)
      guard end > start else { throw fail("\(what) has an empty identifier") }
      for index in start..<end where !isIdentifierByte(bytes[index]) {
        throw fail("\(what) '\(text)' may hold only [0-9A-Za-z-]")
      }
      found.append(text)
      guard end < range.upperBound else { return found }
      start = end + 1
    }
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

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private static func isIdentifierByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7a) || byte == 0x2d
  }
}
