/// The payload of `:post EVENT key=value ...`, held to the rules of a URL's query: every word a
/// `key=value` pair with a name before its `=`, and each name once.
///
/// ```swift
/// try PostPayload.parse(["id=7", "title="])  // ["id": "7", "title": ""]
/// try PostPayload.parse(["id=7", "id=8"])    // throws: parameter 'id' given more than once
/// ```
enum PostPayload {
  /// The pairs of `words` as the event's payload, values as strings; throws the first word that
  /// is not a pair or repeats a name.
  static func parse(_ words: some Sequence<String>) throws(Refusal) -> [String: any Sendable] {
    var payload: [String: any Sendable] = [:]
    for word in words {
      guard let equals = word.firstIndex(of: "=") else {
        throw Refusal(
          "parameter '\(word)' has no '=' and value; write \(word)=VALUE (\(word)= for an empty one)"
        )
      }
      let key = String(word[..<equals])
      guard !key.isEmpty else {
        throw Refusal("empty parameter name in '\(word)'; write key=value")
      }
      guard payload.updateValue(String(word[word.index(after: equals)...]), forKey: key) == nil
      else { throw Refusal("parameter '\(key)' given more than once; give each key once") }
    }
    return payload
  }

  /// Why a `:post` line's parameters were refused.
  struct Refusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = ":post: " + description }
  }
}
