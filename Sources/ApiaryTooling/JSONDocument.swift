import ApiarySupport

/// The envelope of every `--format json` output: one JSON object with `schemaVersion` and the
/// command's name, then the command's own fields (documented in `docs/json-output.md`).
///
/// ```swift
/// JSONDocument.render(command: "plan", ["modules": []])
/// // {"command":"plan","modules":[],"schemaVersion":1}
/// ```
package enum JSONDocument {
  /// The version of every command's JSON schema; raised when a field changes meaning or goes.
  package static let schemaVersion = 1

  /// `fields` with `schemaVersion` and `command`, as JSON text. Values that are not JSON
  /// (which the reports never produce) are written as their description.
  package static func render(command: String, _ fields: [String: Any?]) -> String {
    var document = fields
    document["schemaVersion"] = schemaVersion
    document["command"] = command
    return JSONWriter.json(document) ?? JSONWriter.quote(String(describing: document))
  }

  /// A source location as `{"file", "line", "column", "keyPath"}` (line and column may be null).
  package static func location(_ location: SourceLocation?) -> [String: Any?]? {
    guard let location else { return nil }
    return [
      "file": location.file, "line": location.line, "column": location.column,
      "keyPath": location.keyPath,
    ]
  }
}
