import Apiary
import ApiarySupport

/// Renders an action's result for a terminal: JSON when the value is JSON-representable
/// (`String`, integers, finite `Double`, `Bool`, nil or `()`, arrays and string-keyed
/// dictionaries of those, ``JSONValue``, or `Encodable`), else its description. Object keys are
/// sorted, so the output is deterministic (the runtime's one JSON writer does the work). Results
/// nested deeper than ``maximumDepth`` are refused with
/// ``ErrorCode/resultTooDeep``.
///
/// ```swift
/// try ResultRenderer.render(["title": "Hi", "tags": ["a"]])  // {"tags":["a"],"title":"Hi"}
/// try ResultRenderer.render(NonCodableThing())                // NonCodableThing(...)
/// ```
package enum ResultRenderer {
  /// The deepest nesting of arrays and dictionaries rendered.
  package static let maximumDepth = JSONWriter.maximumDepth

  /// JSON text when possible, else `String(describing:)`.
  package static func render(_ value: (any Sendable)?) throws(MediatorError) -> String {
    switch JSONWriter.write(value) {
    case .json(let text): return text
    case .tooDeep: throw .resultTooDeep(limit: maximumDepth)
    case .notJSON: return value.map { String(describing: $0) } ?? "null"
    }
  }

  /// JSON text, or nil when the value is not JSON-representable or nested too deep.
  package static func json(_ value: (any Sendable)?) -> String? {
    JSONWriter.json(value)
  }
}
