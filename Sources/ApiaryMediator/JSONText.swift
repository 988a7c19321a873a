import Foundation

/// Decodes JSON text into the plain values actions receive (`String`, `Int`, `Double`, `Bool`,
/// arrays, dictionaries; `nil` for `null`). Used for `object` parameters given in a URL.
struct JSONText: Decodable {
  let value: (any Sendable)?

  /// The JSON object in `text` as a dictionary, or nil when `text` is not a JSON object.
  static func object(_ text: String) -> [String: any Sendable]? {
    guard text.first == "{",
      let decoded = try? JSONDecoder().decode(JSONText.self, from: Data(text.utf8))
    else { return nil }
    return decoded.value as? [String: any Sendable]
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      value = nil
    } else if let bool = try? container.decode(Bool.self) {
      value = bool
    } else if let int = try? container.decode(Int.self) {
      value = int
    } else if let double = try? container.decode(Double.self) {
      value = double
    } else if let string = try? container.decode(String.self) {
      value = string
    } else if let array = try? container.decode([JSONText].self) {
      value = array.map(\.value)
    } else {
      value = try container.decode([String: JSONText].self).mapValues(\.value)
    }
  }
}
