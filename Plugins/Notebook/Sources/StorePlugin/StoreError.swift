#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why the note store could not read or write its data directory. Each case names the file; a
/// damaged file also says what to do about it.
///
/// ```swift
/// print(StoreError.damaged(file: ".apiary-data/notes.json", problem: "not JSON", remedy: "…"))
/// // .apiary-data/notes.json is damaged: not JSON. …
/// ```
enum StoreError: Error, CustomStringConvertible {
  /// The file's contents cannot be read as store data; `remedy` is the command that gets going.
  case damaged(file: String, problem: String, remedy: String)
  /// A system call on the file failed.
  case system(operation: String, file: String, code: Int32)

  var description: String {
    switch self {
    case .damaged(let file, let problem, let remedy):
      "\(file) is damaged: \(problem). \(remedy)"
    case .system(let operation, let file, let code):
      "cannot \(operation) \(file): \(String(cString: strerror(code)))"
    }
  }

  /// The remedy for a damaged file nothing else depends on: move it aside.
  static func moveAside(_ file: String, keeping what: String) -> String {
    "To start from \(what), move it aside: mv \(shellQuoted(file)) \(shellQuoted(file + ".damaged"))"
  }

  /// What a decoding error says, without Foundation's boilerplate.
  static func reason(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .dataCorrupted(let context), .typeMismatch(_, let context),
      .valueNotFound(_, let context):
      return at(context, context.debugDescription)
    case .keyNotFound(let key, let context):
      return at(context, "missing key '\(key.stringValue)'")
    @unknown default:
      return "\(error)"
    }
  }

  private static func at(_ context: DecodingError.Context, _ text: String) -> String {
    let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
    return path.isEmpty ? text : "\(text) at \(path.joined())"
  }

  /// `text` as one word for a POSIX shell.
  static func shellQuoted(_ text: String) -> String {
    "'" + text.replacing("'", with: #"'\''"#) + "'"
  }
}
