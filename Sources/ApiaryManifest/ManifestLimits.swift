import ApiarySupport

/// What reading one manifest file may cost: its size, how deeply arrays and objects nest, and how
/// many values it expands to (a binary property list may reference one object many times, so a
/// small file can stand for a huge tree). A file past a limit is refused with a
/// ``ManifestProblem/Kind/limitExceeded`` problem before it costs more.
///
/// The application manifest raises or lowers them for the module files with `limits`; the
/// application manifest itself is always read with the defaults.
///
/// ```json
/// { "schemaVersion": 1, "name": "Big", "scheme": "big",
///   "limits": { "fileSize": 33554432, "depth": 512, "values": 4000000 } }
/// ```
package struct ManifestLimits: Sendable, Hashable {
  /// The largest file read, in bytes (default 4 MiB).
  public var fileSize: Int
  /// The deepest nesting of arrays and objects (default 512, at most ``maximumDepth``).
  public var depth: Int
  /// The most values (strings, numbers, arrays, objects… each counted every time it appears)
  /// one file may expand to (default 1,000,000).
  public var values: Int

  /// The deepest nesting any limit may allow: trees are walked recursively after parsing.
  public static let maximumDepth = 512

  public static let `default` = ManifestLimits(fileSize: 4 << 20, depth: 512, values: 1_000_000)

  public init(fileSize: Int, depth: Int, values: Int) {
    self.fileSize = fileSize
    self.depth = min(depth, Self.maximumDepth)
    self.values = values
  }

  /// How a user raises `key`, for problem messages.
  static func hint(_ key: String) -> String {
    "raise \"limits\": {\"\(key)\": …} in the application manifest if the file is trusted"
  }

  /// The problem for a file nested deeper than ``depth``.
  func depthProblem(at location: SourceLocation) -> ManifestProblem {
    ManifestProblem(
      .limitExceeded, at: location,
      "arrays and objects nested deeper than \(depth) levels"
        + (depth < Self.maximumDepth ? "; " + Self.hint("depth") : ""))
  }

  /// The problem for a file that expands to more than ``values`` values.
  func valuesProblem(at location: SourceLocation) -> ManifestProblem {
    ManifestProblem(
      .limitExceeded, at: location,
      "more than \(values) values (shared property-list objects count each time they are "
        + "used); \(Self.hint("values"))")
  }
}
