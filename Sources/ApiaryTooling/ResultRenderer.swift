import Apiary
import ApiarySupport

/// Renders an action's result for a terminal: JSON when the value is JSON-representable
/// (`String`, integers, finite `Double`, `Bool`, nil or `()`, arrays and string-keyed
/// dictionaries of those, ``JSONValue``, or `Encodable`), else its description. Object keys are
/// sorted, so the output is deterministic (the runtime's one JSON writer does the work).
///
/// ```swift
/// ResultRenderer.render(["title": "Hi", "tags": ["a"]])  // {"tags":["a"],"title":"Hi"}
/// ResultRenderer.render(NonCodableThing())                // NonCodableThing(...)
/// ```
public enum ResultRenderer {
  /// JSON text when possible, else `String(describing:)`.
  public static func render(_ value: (any Sendable)?) -> String {
    json(value) ?? value.map { String(describing: $0) } ?? "null"
  }

  /// JSON text, or nil when the value is not JSON-representable.
  public static func json(_ value: (any Sendable)?) -> String? {
    JSONWriter.json(value)
  }
}
