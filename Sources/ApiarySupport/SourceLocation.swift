/// Where something was declared: a file, a key path inside it, and a line and column when the
/// format provides them.
///
/// ```swift
/// let location = SourceLocation(file: "Manifests/modules/notes.json", keyPath: "modules[2].priority",
///                               line: 14, column: 19)
/// print(location)  // Manifests/modules/notes.json:14:19 modules[2].priority
/// ```
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  public var file: String
  public var keyPath: String
  public var line: Int?
  public var column: Int?

  public init(file: String, keyPath: String = "", line: Int? = nil, column: Int? = nil) {
    self.file = file
    self.keyPath = keyPath
    self.line = line
    self.column = column
  }

  public var description: String {
    var text = file
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    }
    if !keyPath.isEmpty { text += " \(keyPath)" }
    return text
  }
}
