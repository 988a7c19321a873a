/// `--format text|json`, the option of `validate`, `plan`, `inspect`, `call` and `run --profile`:
/// text for people (the default), or one JSON document per command for tools (schemas in
/// `docs/json-output.md`).
enum OutputFormat: String, CaseIterable {
  case text, json

  /// The option's name, for each command's `options`.
  static let option = "--format"

  /// The format `arguments` ask for; a value other than `text` or `json` is a usage error.
  init(_ arguments: Arguments) throws(UsageError) {
    self = try arguments.choice(Self.option, default: .text)
  }
}

extension Arguments {
  /// The value of option `name`, one of `Choice`'s raw values, or `fallback` when absent.
  func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, default fallback: Choice)
    throws(UsageError) -> Choice where Choice.RawValue == String
  {
    guard let text = options[name] else { return fallback }
    guard let value = Choice(rawValue: text) else {
      let allowed = Choice.allCases.map(\.rawValue).joined(separator: ", ")
      throw UsageError("\(name) must be one of \(allowed), not '\(text)'")
    }
    return value
  }
}
