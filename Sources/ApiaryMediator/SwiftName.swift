/// Turns manifest names (`notes`, `note-store`, `max_count`) into Swift identifiers for
/// generated code: `NoteStore` for types, `noteStore` for members, keywords in backticks.
package enum SwiftName {
  /// An UpperCamelCase type name.
  package static func type(_ name: String) -> String {
    let words = self.words(name)
    guard !words.isEmpty else { return "_" }
    let joined = words.map(capitalized).joined()
    return joined.first?.isNumber == true ? "_" + joined : joined
  }

  /// A lowerCamelCase member name, escaped with backticks when it is a keyword.
  package static func member(_ name: String) -> String {
    let words = self.words(name)
    guard let first = words.first else { return "_" }
    let joined = lowercasedFirst(first) + words.dropFirst().map(capitalized).joined()
    if joined.first?.isNumber == true { return "_" + joined }
    return keywords.contains(joined) ? "`\(joined)`" : joined
  }

  private static func words(_ name: String) -> [Substring] {
    name.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
  }

  private static func capitalized(_ word: Substring) -> String {
    word.prefix(1).uppercased() + word.dropFirst()
  }

  private static func lowercasedFirst(_ word: Substring) -> String {
    word.prefix(1).lowercased() + word.dropFirst()
  }

  private static let keywords: Set<String> = [
    "associatedtype", "as", "break", "case", "catch", "class", "continue", "default", "defer",
    "deinit", "do", "else", "enum", "extension", "fallthrough", "false", "fileprivate", "for",
    "func", "guard", "if", "import", "in", "init", "inout", "internal", "is", "let", "nil",
    "operator", "private", "protocol", "public", "repeat", "rethrows", "return", "self", "Self",
    "static", "struct", "subscript", "super", "switch", "throw", "throws", "true", "try",
    "typealias", "var", "where", "while", "Any", "Type", "some", "any", "await", "async",
  ]
}
