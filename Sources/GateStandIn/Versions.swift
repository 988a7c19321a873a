// Stand-in for branch `gate`; see README.md here.

/// A SemVer 2.0.0 version.
public struct SemanticVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
  public var major: Int
  public var minor: Int
  public var patch: Int
  public var prerelease: [String]
  public let description: String

  public init(_ text: String) throws(VersionSyntaxError) {
    guard let parsed = Self.parse(text) else {
      throw VersionSyntaxError(input: text, reason: "expected MAJOR.MINOR.PATCH")
    }
    self = parsed
  }

  private init(major: Int, minor: Int, patch: Int, prerelease: [String], description: String) {
    (self.major, self.minor, self.patch) = (major, minor, patch)
    (self.prerelease, self.description) = (prerelease, description)
  }

  private static func parse(_ text: String) -> SemanticVersion? {
    let core = text.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)[0]
    let parts = core.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    let numbers = parts[0].split(separator: ".", omittingEmptySubsequences: false)
    guard numbers.count == 3 else { return nil }
    let values = numbers.compactMap { Int($0) }
    guard values.count == 3, values.allSatisfy({ $0 >= 0 }) else { return nil }
    return SemanticVersion(
      major: values[0], minor: values[1], patch: values[2],
      prerelease: parts.count == 2 ? parts[1].split(separator: ".").map(String.init) : [],
      description: text)
  }

  public static func == (a: Self, b: Self) -> Bool {
    (a.major, a.minor, a.patch, a.prerelease) == (b.major, b.minor, b.patch, b.prerelease)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(major)
    hasher.combine(minor)
    hasher.combine(patch)
    hasher.combine(prerelease)
  }

  public static func < (a: Self, b: Self) -> Bool {
    if (a.major, a.minor, a.patch) != (b.major, b.minor, b.patch) {
      return (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }
    if a.prerelease.isEmpty || b.prerelease.isEmpty { return !a.prerelease.isEmpty }
    for (x, y) in zip(a.prerelease, b.prerelease) where x != y {
      switch (Int(x), Int(y)) {
      case (let i?, let j?): return i < j
      case (.some, nil): return true
      case (nil, .some): return false
      default: return x < y
      }
    }
    return a.prerelease.count < b.prerelease.count
  }
}

/// Comparators separated by spaces, all of which must hold: `>=1.2.0 <2.0.0`, `^1.2.0`.
public struct VersionRange: Sendable, CustomStringConvertible {
  public let description: String
  private let bounds: [(op: String, version: SemanticVersion)]

  public init(_ text: String) throws(PluginProblem) {
    description = text
    var bounds: [(String, SemanticVersion)] = []
    for word in text.split(separator: " ") {
      let op = String(word.prefix { "<>=^~".contains($0) })
      guard let version = try? SemanticVersion(String(word.dropFirst(op.count))),
        ["", "=", "<", "<=", ">", ">=", "^", "~"].contains(op)
      else {
        throw PluginProblem(
          file: "", field: "requires", expected: "a version range like >=1.0.0 <2.0.0",
          found: text, message: "malformed version range")
      }
      switch op {
      case "^", "~":
        var upper = version
        if op == "~" || version.major == 0 {
          (upper.minor, upper.patch) = (upper.minor + 1, 0)
        } else {
          (upper.major, upper.minor, upper.patch) = (upper.major + 1, 0, 0)
        }
        upper.prerelease = ["0"]
        bounds += [(">=", version), ("<", upper)]
      default: bounds.append((op.isEmpty ? "=" : op, version))
      }
    }
    self.bounds = bounds
  }

  public func contains(_ v: SemanticVersion) -> Bool {
    bounds.allSatisfy { bound in
      switch bound.op {
      case "<": v < bound.version
      case "<=": v <= bound.version
      case ">": v > bound.version
      case ">=": v >= bound.version
      default: v == bound.version
      }
    }
  }
}

public struct VersionSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
  public var input: String
  public var reason: String
  public var description: String { "version '\(input)': \(reason)" }
}
