/// Decodes JSON text into the plain values actions receive (`String`, `Int`, `Double`, `Bool`,
/// arrays, dictionaries; `nil` for `null`). Used for `object` parameters given in a URL, so it
/// is linear in the text and refuses nesting deeper than ``JSONParser/maximumDepth``.
enum JSONText {
  /// The JSON object in `text` as a dictionary, or why it is not one.
  static func object(_ text: String) -> Result<[String: any Sendable], Refusal> {
    var text = text
    let parsed = text.withUTF8 { bytes in
      JSONParser.parse(UnsafeRawBufferPointer(bytes), file: "URL parameter")
    }
    guard let root = parsed.root else {
      return .failure(Refusal(reason: parsed.problems.last?.message ?? "not JSON"))
    }
    guard case .object = root.value,
      let object = root.jsonValue.plainValue as? [String: any Sendable]
    else { return .failure(Refusal(reason: nil)) }
    return .success(object)
  }

  /// Why text is not a JSON object, for the error message: a syntax error or the depth limit,
  /// nil when it is JSON of another kind.
  struct Refusal: Error {
    let reason: String?
  }
}
