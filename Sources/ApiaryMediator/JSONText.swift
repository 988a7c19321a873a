import ApiaryManifest

/// Decodes JSON text into the plain values actions receive (`String`, `Int`, `Double`, `Bool`,
/// arrays, dictionaries; `nil` for `null`). Used for `object` parameters given in a URL, so it
/// is linear in the text and refuses nesting deeper than 512 levels (the manifest parser's
/// limit).
enum JSONText {
  /// The JSON object in `text` as a dictionary, or why it is not one.
  static func object(_ text: String) -> Result<[String: any Sendable], Refusal> {
    switch JSONValue.parse(text) {
    case .failure(let problem): return .failure(Refusal(reason: problem.message))
    case .success(let value):
      guard case .object = value, let object = value.plainValue as? [String: any Sendable] else {
        return .failure(Refusal(reason: nil))
      }
      return .success(object)
    }
  }

  /// Why text is not a JSON object, for the error message: a syntax error or the depth limit,
  /// nil when it is JSON of another kind.
  struct Refusal: Error {
    let reason: String?
  }
}
