/// One reason the load gate refuses a plugin library: which library, where it was named, which
/// field, what was expected and what was found, and what to do about it.
///
/// ```swift
/// let problem = PluginProblem(
///   .incompatibleBuild, file: "/p/libNotes.so", field: "abi", expected: "3f2a", found: "9c1d",
///   hint: "the plugin was built against another Apiary; rebuild it with this host's Apiary")
/// print(problem)
/// // library '/p/libNotes.so': field 'abi': expected 3f2a, found 9c1d (the plugin was built …)
/// ```
public struct PluginProblem: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of refusal this is, for callers that react to some kinds differently.
  public enum Kind: String, Sendable, Hashable {
    /// The file is missing, unreadable, not a regular file, or changed while it was read.
    case unreadable
    /// The file is not ELF, or is ELF of a class or byte order this reader does not handle.
    case notELF
    /// The file is ELF but not a shared library (`ET_DYN`).
    case notSharedObject
    /// The library was built for another processor.
    case wrongMachine
    /// The ELF structure is damaged (offsets or sizes outside the file).
    case malformedELF
    /// The library has no `apiary_plugin` section.
    case noDescriptor
    /// The descriptor text is malformed (a line, a key, or a value).
    case malformedDescriptor
    /// The descriptor's `abi`, `compiler`, `triple` or format differs from the host's.
    case incompatibleBuild
    /// The manifest's plugin name or version differs from the descriptor's.
    case manifestMismatch
    /// The file's SHA-256 differs from the manifest's `sha256`.
    case checksumMismatch
    /// The entry symbol `apiary_plugin_entry` is not defined.
    case missingEntry
    /// The library defines symbols of Apiary or of a contract library: it embeds its own copy.
    case embeddedCopy
    /// Two libraries use the same plugin name or export the same module or target type.
    case duplicate
    /// A `requires` line is not met: no such plugin, a version outside the range, or a refused one.
    case unmetRequirement
    /// Plugins require each other in a cycle.
    case requirementCycle
  }

  /// What kind of refusal this is.
  public var kind: Kind
  /// The plugin as the manifest names it (or the contract library's name), if known.
  public var subject: String?
  /// The library file, as given or resolved.
  public var file: String
  /// Where the file was named, e.g. `Manifests/modules/notes.json: modules[0].library`.
  public var origin: String?
  /// The field at fault: a descriptor key, an ELF header field, a section, `sha256`, …
  public var field: String?
  /// The descriptor line of the field, when it comes from the descriptor.
  public var line: Int?
  /// What is wrong, when `expected` and `found` alone do not say it.
  public var message: String?
  /// What the host expected.
  public var expected: String?
  /// What the library holds.
  public var found: String?
  /// Why it matters or how to fix it.
  public var hint: String?
  /// For a contract library's problem: the candidates' libraries that need it, directly or
  /// not (no manifest names a contract library, so its problems are shown with theirs).
  public var neededBy: [String] = []

  /// Makes a problem; the gate fills `subject` and `origin` when it knows them.
  ///
  /// ```swift
  /// let missing = PluginProblem(.unreadable, file: "/p/libX.so", message: "file not found")
  /// ```
  public init(
    _ kind: Kind, subject: String? = nil, file: String, origin: String? = nil,
    field: String? = nil, line: Int? = nil, message: String? = nil, expected: String? = nil,
    found: String? = nil, hint: String? = nil
  ) {
    self.kind = kind
    self.subject = subject
    self.file = file
    self.origin = origin
    self.field = field
    self.line = line
    self.message = message
    self.expected = expected
    self.found = found
    self.hint = hint
  }

  /// `subject: library 'file' (named in origin): field 'f' at apiary_plugin line n: message;
  /// expected e, found f (hint)`, leaving out the parts that are absent.
  public var description: String {
    var text = subject.map { "\($0): " } ?? ""
    text += "library '\(file)'"
    if let origin { text += " (named in \(origin))" }
    if let field {
      text += ": field '\(field)'"
      if let line { text += " at apiary_plugin line \(line)" }
    } else if let line {
      text += ": apiary_plugin line \(line)"
    }
    if let message { text += ": \(message)" }
    let comparison = [expected.map { "expected \($0)" }, found.map { "found \($0)" }]
      .compactMap { $0 }
    if !comparison.isEmpty {
      text += (message == nil ? ": " : "; ") + comparison.joined(separator: ", ")
    }
    if let hint { text += " (\(hint))" }
    return text
  }
}
