import ApiaryManifest

/// Decodes JSON text into the plain values actions receive (`String`, `Int`, `Double`, `Bool`,
/// arrays, dictionaries; `nil` for `null`). Used for `object` parameters given in a URL, so it
/// is linear in the text, refuses nesting deeper than 512 levels (the manifest parser's limit),
/// and holds the text to a manifest's rules and its strings to a string parameter's: no repeated
/// key, no integer beyond 64 bits, no control character but tab, line feed and carriage return.
enum JSONText {
  /// The JSON object in `text` as a dictionary, or why it is not one.
  static func object(_ text: String) -> Result<[String: any Sendable], Refusal> {
    switch JSONValue.parse(text) {
    case .failure(let problem): return .failure(Refusal(reason: problem.message))
    case .success(let value):
      guard case .object = value, let object = value.plainValue as? [String: any Sendable] else {
        return .failure(Refusal(reason: nil))
      }
      if let control = controlCharacter(in: value) {
        return .failure(
          Refusal(
            reason: "a string holds the control character U+"
              + String(control.value, radix: 16, uppercase: true).leftPadded(to: 4)
              + ", as a string parameter may not; only tab, line feed and carriage return are "
              + "allowed"))
      }
      return .success(object)
    }
  }

  /// The first control character, other than tab, line feed and carriage return, in a string or
  /// key of `value`: what ``RemoteURL`` refuses in a parameter.
  private static func controlCharacter(in value: JSONValue) -> Unicode.Scalar? {
    switch value {
    case .string(let text): return controlCharacter(in: text)
    case .array(let items):
      for item in items { if let found = controlCharacter(in: item) { return found } }
    case .object(let members):
      for (key, member) in members {
        if let found = controlCharacter(in: key) ?? controlCharacter(in: member) { return found }
      }
    default: break
    }
    return nil
  }

  private static func controlCharacter(in text: String) -> Unicode.Scalar? {
    text.unicodeScalars.first { scalar in
      (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
        || scalar.value == 0x7F
    }
  }

  /// Why text is not a JSON object, for the error message: a syntax error, the depth limit or a
  /// rule above, nil when it is JSON of another kind.
  struct Refusal: Error {
    let reason: String?
  }
}

extension String {
  /// With `0`s before it up to `width` characters.
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
